package org.itsrt.pipeline.district;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.itsrt.cli.ProjectPaths;
import org.itsrt.pipeline.plan.DistrictPlan;
import org.itsrt.readings.BadInputException;
import org.itsrt.readings.CanonicalTable;
import org.itsrt.readings.pems.PemsImporter;
import org.itsrt.routing.district.DistrictGenerator;
import org.itsrt.routing.district.StudyProfiles;
import org.itsrt.routing.graph.DetectorGraph;
import org.itsrt.routing.graph.DistrictGraph;
import org.itsrt.routing.graph.MetaGraphBuilder;

/**
 * A run's district made ready before anything starts: its clearinghouse folder (the plan's, or one
 * generated as {@code ./its generate --detectors N --seed S --days D} would into
 * {@code results/districts/}), its readings imported into a canonical table (as {@code ./its import}
 * would, cached beside the generated folders), and its routing graph checked to be one connected
 * district ({@link DistrictGraph#requireConnected}). Generating 4,800 detectors takes seconds and
 * importing them about 25 s (docs/import.md), so both are kept and reused while their files are
 * there; each is written under a temporary name and moved into place whole, so an interrupted run
 * leaves nothing half-written to reuse.
 */
public final class DistrictCache {

    /** Where generated districts and imported tables are kept, under the repository. */
    public static final String FOLDER = "results/districts";

    /** The generator's first day, as {@code ./its generate}'s default. */
    static final LocalDate START = LocalDate.of(2018, 3, 1);

    /**
     * A district ready to run.
     *
     * @param folder    the clearinghouse files
     * @param meta      its station metadata file, the job's {@code --graph-meta} and the demand model's stations
     * @param table     its readings as a canonical table
     * @param detectors the mainline detectors of its routing graph
     */
    public record Ready(Path folder, Path meta, Path table, int detectors) {}

    private final Path cache;
    private final PrintStream log;

    /** @param cache where generated districts and imported tables are kept */
    public DistrictCache(Path cache, PrintStream log) {
        this.cache = cache;
        this.log = log;
    }

    /** The repository's cache, {@link #FOLDER}. */
    public static DistrictCache ofRepository(PrintStream log) {
        return new DistrictCache(ProjectPaths.locate().root().resolve(FOLDER), log);
    }

    /**
     * The plan's district, generated and imported where the cache lacks it, its graph checked.
     *
     * @throws IllegalArgumentException naming the plan's key ({@code load.district.dir} or
     *                                  {@code load.district.detectors}) and what is wrong
     */
    public Ready resolve(DistrictPlan plan) throws IOException {
        Path folder = plan.dir() != null ? plan.dir() : generated(plan);
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(
                    DistrictPlan.DIR.key() + ": " + folder + " is not a folder of clearinghouse files");
        }
        Path meta = metaFile(folder);
        DetectorGraph graph;
        try {
            graph = new MetaGraphBuilder(MetaGraphBuilder.Options.defaults()).build(meta);
            DistrictGraph.requireConnected(graph, meta.toString());
        } catch (BadInputException e) {
            throw new IllegalArgumentException(DistrictPlan.DIR.key() + ": " + e.getMessage(), e);
        }
        int detectors = graph.detectors().size();
        if (detectors != plan.detectors()) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "%s: the district of %s has %d mainline detectors, the plan sizes its load for %d: set it to %d",
                    DistrictPlan.DETECTORS,
                    folder,
                    detectors,
                    plan.detectors(),
                    detectors));
        }
        return new Ready(folder, meta, imported(folder), detectors);
    }

    /** The generated district's folder in the cache, generated when it is not there. */
    private Path generated(DistrictPlan plan) throws IOException {
        Path folder = cache.resolve(
                String.format(Locale.ROOT, "district-%d-seed%d-%dd", plan.detectors(), plan.seed(), plan.days()));
        if (Files.isDirectory(folder)) {
            return folder;
        }
        Files.createDirectories(cache);
        Path partial = Files.createTempDirectory(cache, folder.getFileName() + ".partial-");
        long started = System.nanoTime();
        String profiles = ProjectPaths.SAMPLE_TABLE;
        StudyProfiles shapes = StudyProfiles.from(ProjectPaths.locate().sampleTable(), profiles);
        String command = "./its generate --detectors " + plan.detectors() + " --seed " + plan.seed() + " --start "
                + START + " --days " + plan.days() + " --profiles " + profiles + " --out FOLDER";
        new DistrictGenerator(plan.seed(), plan.detectors(), shapes)
                .write(partial, START, plan.days(), command, shapes.source());
        Files.move(partial, folder, StandardCopyOption.ATOMIC_MOVE);
        log.printf(
                Locale.ROOT,
                "its-demo: generated a district of %,d detectors (seed %d, %d day(s)) into %s in %.1f s%n",
                plan.detectors(),
                plan.seed(),
                plan.days(),
                folder,
                (System.nanoTime() - started) / 1e9);
        return folder;
    }

    /** The folder's readings as a canonical table in the cache, imported when it is not there. */
    private Path imported(Path folder) throws IOException {
        Path absolute = folder.toAbsolutePath().normalize();
        Path table = cache.resolve(absolute.getFileName() + "-" + shortHash(absolute.toString()) + ".csv.gz");
        if (Files.isRegularFile(table)) {
            return table;
        }
        Files.createDirectories(cache);
        long started = System.nanoTime();
        PemsImporter.Result result;
        try {
            result = new PemsImporter(PemsImporter.Options.strict(), line -> {}).importFrom(List.of(folder));
        } catch (BadInputException e) {
            throw new IllegalArgumentException(DistrictPlan.DIR.key() + ": " + e.getMessage(), e);
        }
        Path partial = Files.createTempFile(cache, table.getFileName().toString(), ".partial.csv.gz");
        CanonicalTable.write(partial, result.readings());
        Files.move(partial, table, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        log.printf(
                Locale.ROOT,
                "its-demo: imported %,d readings of %s into %s in %.1f s%n",
                result.readings().size(),
                folder,
                table,
                (System.nanoTime() - started) / 1e9);
        return table;
    }

    /** The folder's one station metadata file. */
    private static Path metaFile(Path folder) throws IOException {
        List<Path> metas;
        try (Stream<Path> files = Files.list(folder)) {
            metas = files.filter(f -> f.getFileName().toString().matches("d\\d\\d_text_meta_.*\\.txt"))
                    .sorted()
                    .toList();
        }
        if (metas.size() != 1) {
            throw new IllegalArgumentException(DistrictPlan.DIR.key() + ": " + folder
                    + " must hold one station metadata file d<NN>_text_meta_<date>.txt, found " + metas.size());
        }
        return metas.get(0);
    }

    private static String shortHash(String text) {
        try {
            byte[] digest =
                    java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
