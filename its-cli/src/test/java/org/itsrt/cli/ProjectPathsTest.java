package org.itsrt.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectPathsTest {

    @Test
    void theBuildsRootPropertyIsTheRepositoryAndItsDefaultsAreThere() {
        // Surefire sets itsrt.repo.root to the checkout this test runs in (root pom).
        ProjectPaths paths = ProjectPaths.locate();

        assertThat(paths.foundBy()).isEqualTo("system property " + ProjectPaths.ROOT_PROPERTY);
        assertThat(paths.root().resolve("its")).isRegularFile();
        assertThat(paths.sampleTable()).isRegularFile().hasFileName("synthetic-readings.csv");
        assertThat(paths.modelBundle().resolve("saved_model")).isDirectory();
        assertThat(paths.studyRows()).isRegularFile().hasFileName("study-rows.tsv");
    }

    @Test
    void withoutThePropertyTheRepositoryIsFoundAboveTheRunningCode() {
        String before = System.getProperty(ProjectPaths.ROOT_PROPERTY);
        System.clearProperty(ProjectPaths.ROOT_PROPERTY);
        try {
            ProjectPaths paths = ProjectPaths.locate();

            assertThat(paths.foundBy()).startsWith("the location of the running code");
            // This test runs from its-cli/target/test-classes, so the repository is two folders up.
            assertThat(paths.root().resolve("its-cli").resolve("pom.xml")).isRegularFile();
            if (before != null) {
                assertThat(paths.root())
                        .isEqualTo(Path.of(before).toAbsolutePath().normalize());
            }
        } finally {
            if (before != null) {
                System.setProperty(ProjectPaths.ROOT_PROPERTY, before);
            }
        }
    }

    @Test
    void theNearestFolderWithTheLauncherAndThePomIsTheRoot(@TempDir Path dir) throws IOException {
        Path repo = dir.resolve("repo");
        Path classes = Files.createDirectories(repo.resolve("producers/target/classes"));
        Files.writeString(repo.resolve("its"), "#!/usr/bin/env bash\n");
        Files.writeString(repo.resolve("pom.xml"), "<project/>");
        // A module's own pom alone does not make a root.
        Files.writeString(repo.resolve("producers/pom.xml"), "<project/>");

        assertThat(ProjectPaths.repositoryAbove(classes))
                .isEqualTo(repo.toAbsolutePath().normalize());
        assertThat(ProjectPaths.repositoryAbove(dir)).isNull();
    }

    @Test
    void aMissingDefaultNamesThePathWhatWasExpectedAndTheRemedy(@TempDir Path dir) {
        ProjectPaths paths = ProjectPaths.at(dir);

        assertThatThrownBy(paths::sampleTable)
                .isInstanceOf(MissingDefaultException.class)
                .hasMessageStartingWith(dir.resolve(ProjectPaths.SAMPLE_TABLE) + ": missing; expected the committed "
                        + "synthetic readings table")
                .hasMessageContaining(
                        "in the repository at " + dir.toAbsolutePath().normalize() + " (root taken from the caller)")
                .hasMessageContaining("./its generate");
        assertThatThrownBy(paths::modelBundle)
                .isInstanceOf(MissingDefaultException.class)
                .hasMessageStartingWith(
                        dir.resolve(ProjectPaths.MODEL_BUNDLE) + ": missing; expected the shipped model bundle")
                .hasMessageContaining("saved_model/");
        assertThatThrownBy(paths::studyRows)
                .isInstanceOf(MissingDefaultException.class)
                .hasMessageStartingWith(
                        dir.resolve(ProjectPaths.STUDY_ROWS) + ": missing; expected the study's scheduler rows")
                .hasMessageContaining("git checkout -- xen-configs/study-rows.tsv");
        assertThatThrownBy(paths::jobJar)
                .isInstanceOf(MissingDefaultException.class)
                .hasMessageStartingWith(
                        dir.resolve("its-job/target/its-job-*-flink-job.jar") + ": missing; expected the job jar")
                .hasMessageContaining("mvn -B -q -pl its-job -am package -DskipTests");
    }

    @Test
    void theNewestJobJarIsTaken(@TempDir Path dir) throws IOException {
        Path target = Files.createDirectories(dir.resolve(ProjectPaths.JOB_JAR_FOLDER));
        Path old = Files.writeString(target.resolve("its-job-0.1.0-flink-job.jar"), "old");
        Path fresh = Files.writeString(target.resolve("its-job-0.2.0-SNAPSHOT-flink-job.jar"), "new");
        Files.writeString(target.resolve("its-job-0.2.0-SNAPSHOT.jar"), "not the job jar");
        Files.setLastModifiedTime(old, FileTime.fromMillis(2_000_000_000_000L));
        Files.setLastModifiedTime(fresh, FileTime.fromMillis(2_000_000_100_000L));

        assertThat(ProjectPaths.at(dir).jobJar())
                .isEqualTo(fresh.toAbsolutePath().normalize());
    }

    @Test
    void presentDefaultsAreReturnedAsAbsolutePaths(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve(ProjectPaths.SAMPLE_TABLE).getParent());
        Files.writeString(dir.resolve(ProjectPaths.SAMPLE_TABLE), "detector,ts\n");
        Files.createDirectories(dir.resolve(ProjectPaths.MODEL_BUNDLE).resolve("saved_model"));

        ProjectPaths paths = ProjectPaths.at(dir);

        assertThat(paths.sampleTable())
                .isAbsolute()
                .isEqualTo(dir.resolve(ProjectPaths.SAMPLE_TABLE).toAbsolutePath());
        assertThat(paths.modelBundle())
                .isAbsolute()
                .isEqualTo(dir.resolve(ProjectPaths.MODEL_BUNDLE).toAbsolutePath());
    }
}
