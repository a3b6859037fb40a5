package org.itsrt.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The stand-in base images (docker/base-images) are the releases the project names everywhere
 * else: the tags docker/Dockerfile and docker/compose.yaml use carry the versions the root pom
 * builds and tests against, and the Maven stand-in's distribution is the build stage's tag. A
 * version bumped in one place and not the other fails here, not in an image build.
 */
class BaseImagesTest {

    @Test
    void theFlinkImageTagIsTheFlinkTheJobIsBuiltAgainst() throws Exception {
        assertThat(match("docker/Dockerfile", "(?m)^FROM flink:([0-9.]+)-java17 AS flink$"))
                .isEqualTo(rootProperty("flink.version"));
    }

    @Test
    void theKafkaImageTagIsTheKafkaOfTheLocalStack() throws Exception {
        assertThat(match("docker/compose.yaml", "(?m)^\\s*image: apache/kafka:([0-9.]+)$"))
                .isEqualTo(rootProperty("kafka.version"));
        assertThat(read("docker/base-images/kafka/pom.xml")).contains("<version>${kafka.version}</version>");
    }

    @Test
    void theZooKeeperImageTagIsTheReleaseLineOfTheLocalStacksZooKeeper() throws Exception {
        String line = match("docker/compose.yaml", "(?m)^\\s*image: zookeeper:([0-9.]+)$");
        assertThat(rootProperty("zookeeper.version")).startsWith(line + ".");
        assertThat(read("docker/base-images/zookeeper/pom.xml")).contains("<version>${zookeeper.version}</version>");
    }

    @Test
    void theMavenStandInIsTheBuildStagesMaven() throws Exception {
        String tag = match("docker/Dockerfile", "(?m)^FROM maven:([0-9.]+)-eclipse-temurin-17 AS build$");
        assertThat(match(
                        "docker/base-images/maven/pom.xml",
                        "<maven.distribution.version>([^<]+)</maven.distribution.version>"))
                .isEqualTo(tag);
    }

    @Test
    void everyStandInBuildsOnTheJavaRuntimeTheToolsImageUses() throws Exception {
        String runtime = match("docker/Dockerfile", "(?m)^FROM (eclipse-temurin:\\S+) AS tools$");
        for (String image : new String[] {"flink", "kafka", "zookeeper"}) {
            assertThat(read("docker/base-images/" + image + "/Dockerfile"))
                    .as(image + "'s stand-in starts from the tools' Java runtime")
                    .contains("ARG JRE_IMAGE=" + runtime + "\nFROM ${JRE_IMAGE}");
        }
    }

    private static String rootProperty(String name) throws Exception {
        return match("pom.xml", "<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">");
    }

    private static String match(String file, String regex) throws Exception {
        Matcher matcher = Pattern.compile(regex).matcher(read(file));
        assertThat(matcher.find()).as(file + " has " + regex).isTrue();
        return matcher.group(1);
    }

    private static String read(String file) throws Exception {
        return Files.readString(ComposeStack.root().resolve(file), StandardCharsets.UTF_8);
    }
}
