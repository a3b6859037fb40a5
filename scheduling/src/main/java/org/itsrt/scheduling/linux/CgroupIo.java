package org.itsrt.scheduling.linux;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file operations on a cgroup file system. Kernel interface files behave unlike plain files (mkdir
 * creates them, a write to cgroup.procs moves a process, rmdir removes a directory full of them), so
 * tests of the cgroup v2 code on a machine without v2 controllers swap in a simulation of them.
 */
public interface CgroupIo {

    CgroupIo SYSTEM = new CgroupIo() {
        @Override
        public boolean exists(Path path) {
            return Files.exists(path);
        }

        @Override
        public String read(Path file) throws IOException {
            // One large read, as for procfs: kernel files report size 0.
            try (InputStream in = Files.newInputStream(file)) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }

        @Override
        public void write(Path file, String value) throws IOException {
            // One write(2) per value, on the existing file: the kernel parses each write on its own, and
            // creating a missing interface file would hide that the controller is not there.
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(value.getBytes(StandardCharsets.US_ASCII));
                int written = channel.write(bytes);
                if (bytes.hasRemaining()) {
                    throw new IOException(
                            "short write to " + file + ": " + written + " of " + value.length() + " bytes");
                }
            }
        }

        @Override
        public void mkdir(Path dir) throws IOException {
            Files.createDirectory(dir);
        }

        @Override
        public void rmdir(Path dir) throws IOException {
            Files.delete(dir);
        }
    };

    boolean exists(Path path);

    String read(Path file) throws IOException;

    void write(Path file, String value) throws IOException;

    void mkdir(Path dir) throws IOException;

    void rmdir(Path dir) throws IOException;
}
