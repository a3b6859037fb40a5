package org.itsrt.stack.zookeeper;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.itsrt.stack.ChildJvm;

/**
 * A real standalone ZooKeeper 3.9 server as a {@link ChildJvm}, for Flink's high availability in
 * local clusters: a loopback client port (free or fixed), its data in its own folder, its log in
 * {@code zookeeper.log} there. It can be stopped and restarted on the same port and data (ZooKeeper
 * down for a while), killed as by a crash, and is removed with its folder on {@link #close()}, on
 * Ctrl-C and when this JVM dies.
 *
 * <p>Readiness and {@link #isServing()} use ZooKeeper's four-letter words ({@code ruok},
 * {@code srvr}) over a plain socket, so this JVM needs no ZooKeeper client.
 */
public final class LocalZooKeeper implements AutoCloseable {

    private static final String LOOPBACK = "127.0.0.1";
    private static final String PORT_PURPOSE = "ZooKeeper client port";
    /** Four-letter words the server answers; everything else stays off. */
    static final String FOUR_LETTER_WORDS = "ruok,srvr,stat,mntr,conf";

    /** How long one four-letter word may take: the server answers at once unless it is not up. */
    private static final Duration FOUR_LETTER_TIMEOUT = Duration.ofSeconds(2);

    /**
     * A free port is chosen here, but another process may take it before the server binds it:
     * such a start is tried again on another free port, this many times in all. A fixed port is
     * not retried.
     */
    private static final int START_ATTEMPTS = 3;

    /**
     * The longest session the server grants: Flink's default ZooKeeper session (60 s), so that a
     * client that asks for it is not cut short silently. The server's own default would be 20
     * ticks, 10 s at the default tick.
     */
    static final Duration MAX_SESSION_TIMEOUT = Duration.ofSeconds(60);

    private final ChildJvm server;
    private final int port;

    /**
     * How to start the server.
     *
     * @param port         the client port on 127.0.0.1; 0 = a free one
     * @param tickTime     ZooKeeper's time unit: sessions may last between 2 and (here at least) 20
     *                     ticks, and the server checks for expired sessions once a tick
     * @param parentDir    where the server's folder goes (null: java.io.tmpdir)
     * @param classPath    the child's class path: ZooKeeper, metrics-core, snappy-java, Log4j and
     *                     this module's classes
     * @param startTimeout how long the server may take to serve
     */
    public record Options(int port, Duration tickTime, Path parentDir, String classPath, Duration startTimeout) {

        public Options {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0 (a free one) or 1..65535, got " + port);
            }
            Objects.requireNonNull(tickTime, "tickTime");
            if (tickTime.toMillis() < 1) {
                throw new IllegalArgumentException("tickTime must be at least 1 ms, got " + tickTime);
            }
            Objects.requireNonNull(classPath, "classPath");
            Objects.requireNonNull(startTimeout, "startTimeout");
        }

        /**
         * A free port and a tick of 500 ms, the caller's class path (which holds the server: a
         * run-time dependency of this module). The tick is short (ZooKeeper's sample configuration
         * has 2 s) because the shortest session the server grants is two ticks: Flink's sessions
         * can then be a few seconds, and a JobManager that dies loses its leadership, which lives
         * in its session, within those few seconds.
         */
        public static Options defaults() {
            return new Options(0, Duration.ofMillis(500), null, callerClassPath(), Duration.ofSeconds(60));
        }

        public Options withPort(int p) {
            return new Options(p, tickTime, parentDir, classPath, startTimeout);
        }

        public Options withTickTime(Duration tick) {
            return new Options(port, tick, parentDir, classPath, startTimeout);
        }

        /** Where the server's folder goes (default: java.io.tmpdir). */
        public Options withParentDir(Path parent) {
            return new Options(port, tickTime, parent, classPath, startTimeout);
        }

        public Options withClassPath(String path) {
            return new Options(port, tickTime, parentDir, path, startTimeout);
        }

        public Options withStartTimeout(Duration timeout) {
            return new Options(port, tickTime, parentDir, classPath, timeout);
        }

        /** The longest session the server grants (see {@link #MAX_SESSION_TIMEOUT}). */
        Duration maxSessionTimeout() {
            Duration twentyTicks = tickTime.multipliedBy(20);
            return twentyTicks.compareTo(MAX_SESSION_TIMEOUT) > 0 ? twentyTicks : MAX_SESSION_TIMEOUT;
        }
    }

    private LocalZooKeeper(ChildJvm server, int port) {
        this.server = server;
        this.port = port;
    }

    /**
     * Starts the server and waits until it serves (it answers {@code ruok} with {@code imok} and
     * {@code srvr} shows its mode). A fixed port that another process holds fails before anything
     * starts, naming the port; a start that fails leaves no process and no folder, and its error
     * carries the tail of the server's log.
     */
    public static LocalZooKeeper start(Options options) {
        if (options.port() != 0) {
            ChildJvm.requireFreePort(options.port(), PORT_PURPOSE);
            return startOnce(options, options.port());
        }
        for (int attempt = 1; ; attempt++) {
            int port;
            try {
                port = ChildJvm.freeLoopbackPort();
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "could not find a free loopback port for ZooKeeper: " + e.getMessage(), e);
            }
            try {
                return startOnce(options, port);
            } catch (IllegalStateException e) {
                if (attempt >= START_ATTEMPTS
                        || e.getMessage() == null
                        || !e.getMessage().contains("Address already in use")) {
                    throw e;
                }
            }
        }
    }

    private static LocalZooKeeper startOnce(Options options, int port) {
        ChildJvm server = ChildJvm.start(
                "the local ZooKeeper server (client port " + port + ")",
                options.parentDir(),
                "its-zookeeper-",
                options.startTimeout(),
                dir -> prepare(options, dir, port),
                dir -> serves(port));
        return new LocalZooKeeper(server, port);
    }

    /** What Flink's {@code high-availability.zookeeper.quorum} and ZooKeeper clients take: {@code 127.0.0.1:PORT}. */
    public String connectString() {
        return LOOPBACK + ":" + port;
    }

    public int port() {
        return port;
    }

    /** The server process; another one after {@link #restart()}. */
    public long pid() {
        return server.pid();
    }

    /** The server's folder: {@code zoo.cfg}, {@code data/}, {@code zookeeper.log}; removed by {@link #close()}. */
    public Path dir() {
        return server.dir();
    }

    /** False once the server process has ended (stopped, killed or crashed). */
    public boolean isAlive() {
        return server.isAlive();
    }

    /** True while the server serves clients ({@code srvr} shows its mode). */
    public boolean isServing() {
        return isServing(port);
    }

    /**
     * Sends one of ZooKeeper's four-letter words ({@value #FOUR_LETTER_WORDS}) and returns the
     * answer; fails if the server does not answer.
     */
    public String fourLetterWord(String word) throws IOException {
        return fourLetterWord(port, word);
    }

    /**
     * Stops the server (its orderly shutdown, killed after {@link ChildJvm#STOP_GRACE}); port,
     * data and folder stay for {@link #restart()}. Clients lose their connection and, once their
     * session times out, their ephemeral nodes (Flink's JobManagers their leadership).
     */
    public void stop() {
        server.stop();
    }

    /** Ends the server at once (SIGKILL), as a crash would; data and folder stay. */
    public void kill() {
        try {
            server.kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing the local ZooKeeper server", e);
        }
    }

    /**
     * Starts the server again on the same port and data after {@link #stop()}, {@link #kill()} or
     * a crash, and waits until it serves. Sessions that had not timed out meanwhile go on; their
     * clients reconnect by themselves. Fails, naming the port, if another process took it meanwhile.
     */
    public void restart() {
        if (!server.isAlive()) {
            ChildJvm.requireFreePort(port, PORT_PURPOSE);
        }
        try {
            server.restart();
        } catch (IOException e) {
            throw new UncheckedIOException("could not restart the local ZooKeeper server: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restarting the local ZooKeeper server", e);
        }
    }

    /** Stops the server and removes its folder and data. */
    @Override
    public void close() {
        server.close();
    }

    /** {@link #close()}, but the folder (data and {@code zookeeper.log}) stays for a look afterwards. */
    public void closeKeepingFolder() {
        server.closeKeepingFolder();
    }

    /** {@code zoo.cfg} and the log configuration in {@code dir}; what to run on them. */
    private static ChildJvm.Launch prepare(Options options, Path dir, int port) throws IOException {
        Path config = writeConfig(dir, options, port);
        List<String> jvmOptions = new ArrayList<>();
        // ZooKeeper's distribution starts it with 1 GB; what Flink's HA keeps there is a few kilobytes.
        jvmOptions.add("-Xms32m");
        jvmOptions.add("-Xmx256m");
        jvmOptions.add("-Djava.awt.headless=true");
        jvmOptions.add(ChildJvm.log4jToFile(dir, "zookeeper.log", "%d{HH:mm:ss.SSS} %-5p %c{1} - %m%n"));
        return ChildJvm.Launch.of("zookeeper", options.classPath(), ZooKeeperMain.class.getName())
                .withJvmOptions(jvmOptions)
                .withArgs(List.of(config.toString()))
                .withLogFiles("zookeeper.log");
    }

    static Path writeConfig(Path dir, Options options, int port) throws IOException {
        Path data = Files.createDirectories(dir.resolve("data"));
        List<String> lines = List.of(
                "# Written by LocalZooKeeper: a standalone server (no server.N lines) on loopback.",
                "tickTime=" + options.tickTime().toMillis(),
                "dataDir=" + data,
                "clientPort=" + port,
                "clientPortAddress=" + LOOPBACK,
                // Sessions between 2 ticks (ZooKeeper's default minimum) and Flink's default session.
                "maxSessionTimeout=" + options.maxSessionTimeout().toMillis(),
                // Every client comes from loopback: the default limit of 60 connections per address
                // would count all JobManagers, TaskManagers and tools of every cluster together.
                "maxClientCnxns=0",
                // Readiness and health over a plain socket; the admin server (Jetty, port 8080) is off.
                "4lw.commands.whitelist=" + FOUR_LETTER_WORDS,
                "admin.enableServer=false",
                // Written to the OS on every commit but not forced to disk: the data survives the
                // server's stop, kill and restart, and no fsync stalls a Flink leader election on a
                // busy machine. A crash of the machine itself may lose the last writes, as
                // acceptable for a local cluster.
                "forceSync=no",
                // Old snapshots and transaction logs are removed every hour, the last 3 kept.
                "autopurge.snapRetainCount=3",
                "autopurge.purgeInterval=1",
                "");
        Path file = dir.resolve("zoo.cfg");
        Files.writeString(file, String.join("\n", lines), StandardCharsets.UTF_8);
        return file;
    }

    private static boolean serves(int port) {
        try {
            return fourLetterWord(port, "ruok").trim().equals("imok") && isServing(port);
        } catch (IOException notYet) {
            return false;
        }
    }

    private static boolean isServing(int port) {
        try {
            // Before it has loaded its data (or while it shuts down) the server answers that it
            // "is not currently serving requests" instead of its mode.
            return fourLetterWord(port, "srvr").contains("Mode: ");
        } catch (IOException notServing) {
            return false;
        }
    }

    /** One four-letter word on a connection of its own; the server answers and closes it. */
    static String fourLetterWord(int port, String word) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOOPBACK, port), (int) FOUR_LETTER_TIMEOUT.toMillis());
            socket.setSoTimeout((int) FOUR_LETTER_TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * This JVM's class path, which holds the server; without another SLF4J binding than Log4j's,
     * which would otherwise win by chance and log to the console.
     */
    static String callerClassPath() {
        return Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("slf4j-simple") && !entry.contains("logback-classic"))
                .collect(Collectors.joining(File.pathSeparator));
    }
}
