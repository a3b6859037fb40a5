package org.itsrt.stack.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalZooKeeperTest {

    @Test
    void servesOnLoopbackKeepsItsDataAcrossStopKillAndRestartAndLeavesNothingBehind(@TempDir Path parent)
            throws Exception {
        Path dir;
        ProcessHandle last;
        try (LocalZooKeeper zk =
                LocalZooKeeper.start(LocalZooKeeper.Options.defaults().withParentDir(parent))) {
            dir = zk.dir();
            assertThat(dir.getParent()).isEqualTo(parent.toAbsolutePath());
            assertThat(zk.connectString()).isEqualTo("127.0.0.1:" + zk.port());
            assertThat(zk.fourLetterWord("ruok")).isEqualTo("imok");
            assertThat(zk.fourLetterWord("srvr")).contains("Zookeeper version: 3.9", "Mode: standalone");
            assertThat(zk.isServing()).isTrue();
            assertThat(zk.fourLetterWord("conf")).contains("tickTime=500", "maxSessionTimeout=60000");
            assertThat(dir.resolve("zookeeper.log"))
                    .as("logs through Log4j, listening on loopback only")
                    .content()
                    .contains("binding to port /127.0.0.1:" + zk.port());

            write(zk.connectString(), "/its-test", "kept");

            long first = zk.pid();
            zk.stop();
            assertThat(zk.isAlive()).isFalse();
            assertThat(zk.isServing()).isFalse();
            assertThat(dir).isDirectory();
            zk.restart();
            assertThat(zk.pid()).isNotEqualTo(first);
            assertThat(zk.isServing()).isTrue();
            assertThat(read(zk.connectString(), "/its-test")).isEqualTo("kept");

            zk.kill();
            assertThat(zk.isAlive()).isFalse();
            zk.restart();
            assertThat(read(zk.connectString(), "/its-test")).as("after a kill").isEqualTo("kept");
            last = ProcessHandle.of(zk.pid()).orElseThrow();
        }
        assertThat(last.isAlive()).isFalse();
        assertThat(dir).doesNotExist();
    }

    @Test
    void aTakenFixedPortFailsTheStartNamingItAndStartsNothing(@TempDir Path parent) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            List<ProcessHandle> before = children();
            assertThatThrownBy(() -> LocalZooKeeper.start(LocalZooKeeper.Options.defaults()
                            .withParentDir(parent)
                            .withPort(taken.getLocalPort())))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("port " + taken.getLocalPort())
                    .hasMessageContaining("(ZooKeeper client port) is taken");
            assertThat(children()).allMatch(before::contains);
            try (var left = Files.list(parent)) {
                assertThat(left).isEmpty();
            }
        }
    }

    @Test
    void closingKeepingTheFolderStopsTheServerAndKeepsItsLog(@TempDir Path parent) throws Exception {
        int port = org.itsrt.stack.ChildJvm.freeLoopbackPort();
        LocalZooKeeper zk = LocalZooKeeper.start(
                LocalZooKeeper.Options.defaults().withParentDir(parent).withPort(port));
        assertThat(zk.port()).isEqualTo(port);
        ProcessHandle process = ProcessHandle.of(zk.pid()).orElseThrow();
        zk.closeKeepingFolder();
        assertThat(process.isAlive()).isFalse();
        assertThat(zk.dir().resolve("zookeeper.log")).content().contains("binding to port /127.0.0.1:" + port);
        assertThat(zk.dir().resolve("zoo.cfg")).content().contains("clientPort=" + port);
    }

    private static void write(String connectString, String path, String value) throws Exception {
        try (ZooKeeper client = connect(connectString)) {
            client.create(
                    path, value.getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
    }

    private static String read(String connectString, String path) throws Exception {
        try (ZooKeeper client = connect(connectString)) {
            return new String(client.getData(path, false, null), StandardCharsets.UTF_8);
        }
    }

    private static ZooKeeper connect(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper client = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(20, TimeUnit.SECONDS)) {
            client.close();
            throw new AssertionError("no ZooKeeper session with " + connectString + " within 20 s");
        }
        return client;
    }

    private static List<ProcessHandle> children() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    }
}
