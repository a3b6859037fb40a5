package org.itsrt.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.itsrt.records.Topics;
import org.itsrt.records.Workload;
import org.itsrt.stack.flink.ClusterConfig;
import org.itsrt.stack.kafka.LocalKafka;
import org.junit.jupiter.api.Test;

/**
 * The compose stack, as Compose resolves it, agrees with the rest of the project: the cluster's
 * shape, the topics and their partitions, the brokers' settings, the study's CPU layout, and rows
 * that budget the TaskManager and nothing else.
 */
class ComposeAgreementTest {

    private static final String FLINK_PROPERTIES = "FLINK_PROPERTIES";

    @Test
    void servicesOnlySayWhereFlinkRunsAndNeverChangeHowItRuns() throws Exception {
        for (String[] files : List.of(new String[0], new String[] {"docker/brokers-3.yaml"})) {
            JsonNode services = ComposeStack.resolve(files).path("services");
            services.fields().forEachRemaining(service -> {
                String properties = service.getValue()
                        .path("environment")
                        .path(FLINK_PROPERTIES)
                        .asText("");
                for (String line : properties.split("\n")) {
                    if (line.isBlank()) {
                        continue;
                    }
                    String key = line.substring(0, line.indexOf(':')).trim();
                    assertThat(ClusterConfig.PLACEMENT_KEYS)
                            .as(service.getKey() + " sets " + key + " in " + FLINK_PROPERTIES + ": only addresses, "
                                    + "ports and folders may differ from docker/flink/config.yaml")
                            .contains(key);
                }
            });
        }
    }

    @Test
    void theFlinkServicesAreTheClustersShapeOnOneImage() throws Exception {
        JsonNode services = ComposeStack.resolve().path("services");
        List<String> jobManagers = new ArrayList<>();
        List<String> taskManagers = new ArrayList<>();
        String image = services.path("jobmanager").path("image").asText();
        services.fields().forEachRemaining(entry -> {
            JsonNode service = entry.getValue();
            List<String> command = ComposeStack.command(service);
            if (command.equals(List.of("jobmanager"))) {
                jobManagers.add(entry.getKey());
                String host = service.path("hostname").asText();
                assertThat(service.path("environment")
                                .path("JOB_MANAGER_RPC_ADDRESS")
                                .asText())
                        .as(entry.getKey() + " announces itself by its own host name")
                        .isEqualTo(host);
                if (!host.equals("jobmanager")) {
                    assertThat(service.path("environment")
                                    .path(FLINK_PROPERTIES)
                                    .asText())
                            .as(entry.getKey() + " publishes its own REST address to clients that follow the leader")
                            .contains("rest.address: " + host);
                }
            }
            if (command.equals(List.of("taskmanager"))) {
                taskManagers.add(entry.getKey());
            }
            if (service.path("image").asText().startsWith("its-rt/flink")) {
                assertThat(service.path("image").asText()).as(entry.getKey()).isEqualTo(image);
            }
        });
        assertThat(jobManagers).hasSize(ComposeStack.SHAPE.jobManagers());
        assertThat(taskManagers).hasSize(ComposeStack.SHAPE.taskManagers());
    }

    @Test
    void topicsPartitionsAndTheJobsParallelismAreThePipelines() throws Exception {
        JsonNode services = ComposeStack.resolve().path("services");
        JsonNode topics = services.path("topics").path("environment");
        assertThat(Arrays.asList(topics.path("ITS_TOPICS").asText().split(" ")))
                .as("the topics the stack creates")
                .isEqualTo(Workload.STUDY.topics());
        String partitions = Integer.toString(ComposeStack.SHAPE.partitions());
        assertThat(topics.path("ITS_PARTITIONS").asText())
                .as("one partition per slot, as ./its cluster creates them")
                .isEqualTo(partitions);

        List<String> submit = ComposeStack.command(services.path("submit"));
        assertThat(ComposeStack.option(submit, "--parallelism")).isEqualTo(partitions);
        for (String option : List.of("--input-topic", "--output-topic", "--dead-letter-topic")) {
            String topic = ComposeStack.option(submit, option);
            assertThat(topic == null || Workload.STUDY.topics().contains(topic))
                    .as("submit " + option + " " + topic)
                    .isTrue();
        }
        assertThat(ComposeStack.option(ComposeStack.command(services.path("producers")), "--topic"))
                .isEqualTo(Topics.READINGS);
        assertThat(ComposeStack.option(ComposeStack.command(services.path("probe")), "--topic"))
                .isEqualTo(Topics.ADVICE);
    }

    @Test
    void everyBrokerHasTheSettingsOfTheLocalBrokers() throws Exception {
        for (String[] files : List.of(new String[0], new String[] {"docker/brokers-3.yaml"})) {
            Map<String, Map<String, String>> brokers = new LinkedHashMap<>();
            ComposeStack.resolve(files).path("services").fields().forEachRemaining(entry -> {
                JsonNode environment = entry.getValue().path("environment");
                if (environment.has("KAFKA_NODE_ID")) {
                    brokers.put(entry.getKey(), kafkaSettings(environment));
                }
            });
            assertThat(brokers).as("brokers with " + List.of(files)).hasSize(files.length == 0 ? 1 : 3);
            Map<String, String> expected = LocalKafka.brokerSettings(brokers.size());
            brokers.forEach((name, settings) -> assertThat(settings)
                    .as(name + " of " + brokers.size() + ": LocalKafka.brokerSettings(" + brokers.size() + ")")
                    .containsAllEntriesOf(expected));
        }
    }

    @Test
    void everyPublishedPortIsOnTheHostsLoopbackByDefault() throws Exception {
        // Neither the brokers (no authentication) nor Flink's REST endpoint (it runs code for whoever
        // reaches it) may be open to the network unless ITS_PUBLISH_ADDRESS says so.
        for (String[] files : List.of(new String[0], new String[] {"docker/brokers-3.yaml"})) {
            List<String> published = new java.util.ArrayList<>();
            ComposeStack.resolve(files).path("services").fields().forEachRemaining(entry -> entry.getValue()
                    .path("ports")
                    .forEach(port -> {
                        published.add(
                                entry.getKey() + ":" + port.path("published").asText());
                        assertThat(port.path("host_ip").asText())
                                .as("host address of %s port %s", entry.getKey(), port.path("published"))
                                .isEqualTo("127.0.0.1");
                    }));
            // The ports the docs name: Kafka, the web UIs of both JobManagers, the brokers of the 3-broker stack.
            assertThat(published)
                    .contains("kafka:9092", "jobmanager:8081", "jobmanager-2:8082")
                    .hasSize(files.length == 0 ? 3 : 5);
        }
    }

    /**
     * A service that does not run as root can write where its volumes are mounted. A named volume
     * starts as a copy of the image's folder with its owner, and a folder the image lacks is made
     * for root: the Flink image must make the shared volume's mount point for its flink user. A
     * bind-mounted host folder keeps the host's owner: the probe's run folder is made for the
     * probe's user by a service that runs as root before it.
     */
    @Test
    void everyServiceThatIsNotRootCanWriteWhereItsVolumesAreMounted() throws Exception {
        JsonNode services = ComposeStack.resolve().path("services");
        String dockerfile = Files.readString(ComposeStack.root().resolve("docker/Dockerfile"), StandardCharsets.UTF_8);
        String flinkStage = dockerfile.substring(dockerfile.indexOf(" AS flink"), dockerfile.indexOf(" AS tools"));
        services.fields().forEachRemaining(entry -> {
            JsonNode service = entry.getValue();
            for (JsonNode volume : service.path("volumes")) {
                String target = volume.path("target").asText();
                if (volume.path("type").asText().equals("volume")
                        && service.path("image").asText().startsWith("its-rt/flink")) {
                    assertThat(flinkStage)
                            .as(entry.getKey() + ": the Flink image makes " + target + " for flink (9999)")
                            .containsPattern("mkdir -p [^\\n]*" + Pattern.quote(target)
                                    + "[^\\n]*&& chown 9999:9999 [^\\n]*" + Pattern.quote(target));
                }
            }
        });
        JsonNode probe = services.path("probe");
        assertThat(probe.path("user").asText()).isEqualTo("1000:1000");
        assertThat(probe.path("depends_on").path("run-folder").path("condition").asText())
                .isEqualTo("service_completed_successfully");
        JsonNode runFolder = services.path("run-folder");
        assertThat(runFolder.path("user").asText()).isEqualTo("0:0");
        assertThat(runFolder.path("volumes").get(0).path("source").asText())
                .isEqualTo(probe.path("volumes").get(0).path("source").asText());
        String script = String.join(" ", ComposeStack.command(runFolder));
        // compose config keeps the file's $$ (a literal $ for the shell)
        assertThat(script).contains("mkdir -p \"results/docker/$$ITS_RUN\"", "chown \"$$ITS_UID:$$ITS_GID\"");
        assertThat(runFolder.path("environment").path("ITS_UID").asText() + ":"
                        + runFolder.path("environment").path("ITS_GID").asText())
                .isEqualTo(probe.path("user").asText());
        assertThat(ComposeStack.option(ComposeStack.command(probe), "--out")).isEqualTo("results/docker/run-1");
    }

    @Test
    void theTaskManagerHasTheRealTimeCpusToItself() throws Exception {
        JsonNode services = ComposeStack.resolve().path("services");
        List<Integer> realTime =
                ComposeStack.cpus(services.path("taskmanager").path("cpuset").asText());
        assertThat(realTime).isNotEmpty();
        services.fields().forEachRemaining(entry -> {
            if (entry.getKey().equals("taskmanager")) {
                return;
            }
            String cpuset = entry.getValue().path("cpuset").asText("");
            assertThat(cpuset)
                    .as(entry.getKey() + " is pinned to the messaging side")
                    .isNotEmpty();
            assertThat(ComposeStack.cpus(cpuset))
                    .as(entry.getKey() + " stays off the real-time CPUs")
                    .doesNotContainAnyElementsOf(realTime);
        });
    }

    @Test
    void aStudyRowBudgetsTheTaskManagerAndNothingElse() throws Exception {
        JsonNode base = ComposeStack.resolve().path("services");
        List<Path> rows = ComposeStack.rowFiles();
        assertThat(rows).isNotEmpty();
        for (Path row : rows) {
            String file = ComposeStack.root().relativize(row).toString();
            JsonNode withRow = ComposeStack.resolve(file).path("services");
            Iterator<String> names = withRow.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                JsonNode changed = withRow.path(name);
                if (!name.equals("taskmanager")) {
                    assertThat(changed)
                            .as(file + " leaves " + name + " as it is")
                            .isEqualTo(base.path(name));
                    continue;
                }
                List<String> fields = new ArrayList<>();
                changed.fieldNames().forEachRemaining(field -> {
                    if (!changed.path(field).equals(base.path(name).path(field))) {
                        fields.add(field);
                    }
                });
                assertThat(fields)
                        .as(file + " changes only the TaskManager's CPU settings")
                        .isNotEmpty()
                        .allMatch(field -> field.startsWith("cpu_"));
            }
        }
    }

    /** {@code KAFKA_MIN_INSYNC_REPLICAS} -> {@code min.insync.replicas}, as the apache/kafka image maps them. */
    private static Map<String, String> kafkaSettings(JsonNode environment) {
        Map<String, String> settings = new LinkedHashMap<>();
        environment.fields().forEachRemaining(variable -> {
            if (variable.getKey().startsWith("KAFKA_")) {
                settings.put(
                        variable.getKey()
                                .substring("KAFKA_".length())
                                .toLowerCase(Locale.ROOT)
                                .replace('_', '.'),
                        variable.getValue().asText());
            }
        });
        return settings;
    }
}
