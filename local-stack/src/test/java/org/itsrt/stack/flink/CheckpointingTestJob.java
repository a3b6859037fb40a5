package org.itsrt.stack.flink;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * A job for the cluster tests, shipped in a jar of its own ({@link #jar()}): a slow endless
 * sequence into a discarding sink, checkpointed every 500 ms, so that a restart shows whether it
 * resumed from a checkpoint.
 */
public final class CheckpointingTestJob {

    private CheckpointingTestJob() {}

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(500);
        env.setParallelism(1);
        env.fromSource(
                        new DataGeneratorSource<>(
                                index -> index, Long.MAX_VALUE, RateLimiterStrategy.perSecond(20), Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "sequence")
                .sinkTo(new DiscardingSink<>());
        env.execute("checkpointing-test-job");
    }

    /** A jar of this class (with its lambda), its main class in the manifest, as {@code /jars/upload} takes it. */
    static byte[] jar() throws IOException, URISyntaxException {
        Path classes = Path.of(CheckpointingTestJob.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        String folder = CheckpointingTestJob.class.getPackageName().replace('.', '/');
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, CheckpointingTestJob.class.getName());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest);
                Stream<Path> files = Files.list(classes.resolve(folder))) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("CheckpointingTestJob"))
                    .toList()) {
                jar.putNextEntry(new JarEntry(folder + "/" + file.getFileName()));
                jar.write(Files.readAllBytes(file));
                jar.closeEntry();
            }
        }
        return bytes.toByteArray();
    }
}
