package org.itsrt.clock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-boot calibration file. A calibrated frequency differs slightly from one run of the
 * calibration to the next, and two processes that converted ticks with different frequencies or
 * anchors would disagree by a growing offset; so the first process after boot calibrates and
 * writes the result here, and every later process on that boot uses exactly these numbers.
 *
 * <p>The file is tiny JSON, written by hand so that the clock needs no JSON library:
 * <pre>{"v":1,"boot_id":"...","counter":"tsc-rdtscp","frequency_hz":2445404123,
 * "anchor_ticks":123,"anchor_raw_ns":456,"calibration_ms":500,"written_at":"..."}</pre>
 */
final class CalibrationCache {

    static final int VERSION = 1;

    /** One cached calibration, valid for the boot it names. */
    record Entry(String bootId, String counter, TscCalibration.Result result, String writtenAt) {}

    private static final Pattern FIELD = Pattern.compile("\"([a-z_]+)\"\\s*:\\s*(?:\"([^\"\\\\]*)\"|(-?\\d+))");

    private CalibrationCache() {}

    /** The Linux boot id, or null when it cannot be read. */
    static String bootId(Path bootIdFile) {
        try {
            String id = Files.readString(bootIdFile, StandardCharsets.US_ASCII).trim();
            return id.isEmpty() ? null : id;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static String toJson(Entry e) {
        TscCalibration.Result r = e.result();
        return "{\"v\":" + VERSION
                + ",\"boot_id\":\"" + safe(e.bootId()) + "\""
                + ",\"counter\":\"" + safe(e.counter()) + "\""
                + ",\"frequency_hz\":" + r.frequencyHz()
                + ",\"anchor_ticks\":" + r.anchorTicks()
                + ",\"anchor_raw_ns\":" + r.anchorRawNanos()
                + ",\"calibration_ms\":" + r.durationMillis()
                + ",\"written_at\":\"" + safe(e.writtenAt()) + "\"}\n";
    }

    private static String safe(String s) {
        if (s == null || s.indexOf('"') >= 0 || s.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("not storable in the calibration file: " + s);
        }
        return s;
    }

    /** Parses {@link #toJson} output; throws {@link IllegalArgumentException} on anything else. */
    static Entry parse(String json) {
        Map<String, String> fields = new HashMap<>();
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            fields.put(m.group(1), m.group(2) != null ? m.group(2) : m.group(3));
        }
        if (!String.valueOf(VERSION).equals(fields.get("v"))) {
            throw new IllegalArgumentException("unknown calibration file version " + fields.get("v"));
        }
        long hz = number(fields, "frequency_hz");
        if (hz <= 0) {
            throw new IllegalArgumentException("frequency_hz must be positive: " + hz);
        }
        TscCalibration.Result r = new TscCalibration.Result(
                hz, number(fields, "anchor_ticks"), number(fields, "anchor_raw_ns"), number(fields, "calibration_ms"));
        return new Entry(text(fields, "boot_id"), text(fields, "counter"), r, fields.getOrDefault("written_at", ""));
    }

    private static long number(Map<String, String> fields, String key) {
        String v = fields.get(key);
        if (v == null) {
            throw new IllegalArgumentException("missing " + key);
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a number: " + v, e);
        }
    }

    private static String text(Map<String, String> fields, String key) {
        String v = fields.get(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("missing " + key);
        }
        return v;
    }

    /** Reads and parses the file; IOException when missing or unreadable, IllegalArgumentException when malformed. */
    static Entry read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    /**
     * Writes the file atomically: a temporary file in the same directory, then a rename over the
     * old one, so a reader sees either the old or the new content and never half of it.
     */
    static void write(Path file, Entry entry) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            Files.writeString(tmp, toJson(entry), StandardCharsets.UTF_8);
            // createTempFile makes the file private; other users' processes on this host read it too.
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
