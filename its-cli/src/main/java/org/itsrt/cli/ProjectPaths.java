package org.itsrt.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The repository's default inputs, found by the commands themselves rather than handed over by
 * the {@code ./its} launcher: the committed sample table, the shipped model bundle, the study's
 * scheduler rows and the job jar the build makes. A command calls the accessor of a default only
 * when the user gave no option for it, so a missing default fails then, naming the path it looked
 * at, how the repository was found and what to do; an option given explicitly never needs the
 * repository.
 *
 * <pre>{@code
 * Path table = data != null ? data : ProjectPaths.locate().sampleTable();
 * }</pre>
 *
 * <p>The repository root is, in this order:
 * <ol>
 *   <li>the system property {@value #ROOT_PROPERTY}, when set (the launcher and the Maven build
 *       set it; tests can point it at a copy);</li>
 *   <li>the nearest folder above the running code (a module's {@code target/classes} or a jar under
 *       {@code target/}) that holds both the {@code its} launcher and {@code pom.xml};</li>
 *   <li>the same, looked for from the working directory upwards; failing that, the working
 *       directory itself.</li>
 * </ol>
 * Looked up on each {@link #locate()} (a few {@code stat} calls), not cached, so a test that sets
 * the property sees its own root.
 */
public final class ProjectPaths {

    /** System property naming the repository root. */
    public static final String ROOT_PROPERTY = "itsrt.repo.root";
    /** The committed synthetic sample, relative to the root (docs/canonical-table.md). */
    public static final String SAMPLE_TABLE = "data/sample/synthetic-readings.csv";
    /** The shipped model bundle, relative to the root (docs/model-bundle.md). */
    public static final String MODEL_BUNDLE = "models/lstm-flow";
    /** Where the build leaves the job jar, relative to the root. */
    public static final String JOB_JAR_FOLDER = "its-job/target";
    /** The job jar's name, as a glob: the version is the build's. */
    public static final String JOB_JAR_GLOB = "its-job-*-flink-job.jar";
    /** The study's scheduler rows (Tables 4-6), relative to the root (xen-configs/README.md). */
    public static final String STUDY_ROWS = "xen-configs/study-rows.tsv";

    private static final String LAUNCHER = "its";
    private static final String POM = "pom.xml";

    private final Path root;
    private final String foundBy;

    private ProjectPaths(Path root, String foundBy) {
        this.root = root.toAbsolutePath().normalize();
        this.foundBy = foundBy;
    }

    /** The repository this code runs from (see the class comment for the order of the search). */
    public static ProjectPaths locate() {
        String property = System.getProperty(ROOT_PROPERTY);
        if (property != null && !property.isBlank()) {
            return new ProjectPaths(Path.of(property), "system property " + ROOT_PROPERTY);
        }
        Path code = codeLocation();
        if (code != null) {
            Path found = repositoryAbove(code);
            if (found != null) {
                return new ProjectPaths(found, "the location of the running code, " + code);
            }
        }
        Path workingDirectory = Path.of("").toAbsolutePath();
        Path found = repositoryAbove(workingDirectory);
        if (found != null) {
            return new ProjectPaths(found, "the working directory, " + workingDirectory);
        }
        return new ProjectPaths(
                workingDirectory,
                "the working directory (no folder above it or above the running "
                        + "code holds the its launcher and pom.xml)");
    }

    /** A repository at a given root, for tests and for a command given the root explicitly. */
    public static ProjectPaths at(Path root) {
        return new ProjectPaths(root, "the caller");
    }

    public Path root() {
        return root;
    }

    /**
     * Where {@link #root()} was taken from, for messages: {@code system property itsrt.repo.root},
     * {@code the location of the running code, PATH}, {@code the working directory, PATH} or
     * {@code the caller} ({@link #at}).
     */
    public String foundBy() {
        return foundBy;
    }

    /**
     * The committed synthetic readings table.
     *
     * @throws MissingDefaultException when it is not a file
     */
    public Path sampleTable() {
        Path table = root.resolve(SAMPLE_TABLE);
        if (!Files.isRegularFile(table)) {
            throw missing(
                    table,
                    "the committed synthetic readings table (" + SAMPLE_TABLE + ")",
                    "restore it with git checkout -- " + SAMPLE_TABLE + ", write one with ./its generate, "
                            + "or give the table explicitly");
        }
        return table;
    }

    /**
     * The shipped model bundle, a folder with its TensorFlow SavedModel in {@code saved_model/}.
     *
     * @throws MissingDefaultException when the folder or its {@code saved_model/} is missing
     */
    public Path modelBundle() {
        Path bundle = root.resolve(MODEL_BUNDLE);
        if (!Files.isDirectory(bundle.resolve("saved_model"))) {
            throw missing(
                    bundle,
                    "the shipped model bundle (" + MODEL_BUNDLE + "/, with saved_model/ inside)",
                    "restore it with git checkout -- " + MODEL_BUNDLE + ", retrain it with ./its train, "
                            + "or give a bundle explicitly");
        }
        return bundle;
    }

    /**
     * The study's scheduler rows, one per configuration of Tables 4-6.
     *
     * @throws MissingDefaultException when it is not a file
     */
    public Path studyRows() {
        Path rows = root.resolve(STUDY_ROWS);
        if (!Files.isRegularFile(rows)) {
            throw missing(
                    rows,
                    "the study's scheduler rows (" + STUDY_ROWS + ")",
                    "restore it with git checkout -- " + STUDY_ROWS + ", or give a rows file explicitly");
        }
        return rows;
    }

    /**
     * The job jar the build made, {@value #JOB_JAR_FOLDER}/{@value #JOB_JAR_GLOB}; the newest
     * when several versions lie there, since the last build is the one that matches the sources.
     *
     * @throws MissingDefaultException when there is none
     */
    public Path jobJar() {
        Path folder = root.resolve(JOB_JAR_FOLDER);
        List<Path> jars = new ArrayList<>();
        if (Files.isDirectory(folder)) {
            try (DirectoryStream<Path> matches = Files.newDirectoryStream(folder, JOB_JAR_GLOB)) {
                matches.forEach(jars::add);
            } catch (IOException e) {
                throw missing(folder.resolve(JOB_JAR_GLOB), "the job jar (" + e.getMessage() + ")", buildJobJar());
            }
        }
        return jars.stream()
                .filter(Files::isRegularFile)
                .max(Comparator.comparing(ProjectPaths::modified))
                .orElseThrow(() -> missing(folder.resolve(JOB_JAR_GLOB), "the job jar", buildJobJar()));
    }

    @Override
    public String toString() {
        return root + " (root taken from " + foundBy + ")";
    }

    private static String buildJobJar() {
        return "build it with mvn -B -q -pl its-job -am package -DskipTests (./its demo does this on first use), "
                + "or give the jar explicitly";
    }

    private MissingDefaultException missing(Path path, String what, String remedy) {
        return new MissingDefaultException(path + ": missing; expected " + what + " in the repository at " + root
                + " (root taken from " + foundBy + "); " + remedy);
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return Long.MIN_VALUE;
        }
    }

    /** The folder or jar this class was loaded from, or {@code null} when the JVM does not say. */
    private static Path codeLocation() {
        try {
            CodeSource source = ProjectPaths.class.getProtectionDomain().getCodeSource();
            return source == null || source.getLocation() == null
                    ? null
                    : Path.of(source.getLocation().toURI());
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            // IllegalArgumentException covers InvalidPathException and a location that is not a file: URI.
            return null;
        }
    }

    /** The nearest folder at or above {@code start} that holds the launcher and the root pom. */
    static Path repositoryAbove(Path start) {
        for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(LAUNCHER)) && Files.isRegularFile(dir.resolve(POM))) {
                return dir;
            }
        }
        return null;
    }
}
