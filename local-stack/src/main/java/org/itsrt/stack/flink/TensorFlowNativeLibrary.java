package org.itsrt.stack.flink;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipFile;

/**
 * TensorFlow Java's native library on a cluster's class path: the {@code tensorflow-core-native}
 * jar with this platform's classifier holds it (the one without a classifier holds classes only).
 * Checked before a cluster starts, since without it the job's model fails to load only once the
 * job runs, in the TaskManagers.
 */
final class TensorFlowNativeLibrary {

    private TensorFlowNativeLibrary() {}

    /**
     * The platform as JavaCPP, which loads the library, names it: the classifier of the jar and
     * the folder of the library inside it ({@code linux-x86_64}, {@code macosx-arm64}, ...).
     */
    static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String osName = os.startsWith("mac") ? "macosx" : os.startsWith("windows") ? "windows" : os.split("\\s")[0];
        String archName =
                switch (arch) {
                    case "amd64", "x86_64", "x86-64" -> "x86_64";
                    case "aarch64", "arm64" -> "arm64";
                    default -> arch;
                };
        return osName + "-" + archName;
    }

    /** The JNI library's entry in the jar: {@code org/tensorflow/internal/c_api/linux-x86_64/libjnitensorflow.so}. */
    static String entry() {
        return "org/tensorflow/internal/c_api/" + platform() + "/" + System.mapLibraryName("jnitensorflow");
    }

    /** Fails, naming what was expected and every class path entry searched, unless {@code classPath} holds the library. */
    static void requireOn(String classPath) {
        String entry = entry();
        List<String> entries = Arrays.stream(classPath.split(File.pathSeparator))
                .filter(e -> !e.isBlank())
                .toList();
        for (String element : entries) {
            if (holds(Path.of(element), entry)) {
                return;
            }
        }
        throw new IllegalStateException("the Flink cluster's class path holds no TensorFlow Java native library for "
                + platform() + ": expected " + entry + ", which the jar org.tensorflow:tensorflow-core-native with "
                + "classifier " + platform() + " holds (tensorflow.native.classifier in pom.xml); without it the "
                + "job's model fails to load in the TaskManagers. Class path searched:\n  "
                + String.join("\n  ", entries));
    }

    private static boolean holds(Path element, String entry) {
        if (Files.isDirectory(element)) {
            return Files.isRegularFile(element.resolve(entry));
        }
        if (!Files.isRegularFile(element)) {
            return false;
        }
        // Only the jar's central directory is read, not the 600 MB of libraries in it.
        try (ZipFile jar = new ZipFile(element.toFile())) {
            return jar.getEntry(entry) != null;
        } catch (IOException notAJar) {
            return false;
        }
    }
}
