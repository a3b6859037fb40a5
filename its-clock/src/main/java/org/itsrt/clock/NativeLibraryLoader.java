package org.itsrt.clock;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads {@code libitsclock.so}. It ships inside the its-clock jar under
 * {@code org/itsrt/clock/native/linux-<os.arch>/}; {@link System#load} needs a file, so the
 * resource is copied to a temporary file, loaded and the file deleted again (the mapping stays
 * valid on Linux), which leaves nothing behind in the temp directory.
 *
 * <p>A JVM can hold the library only once, so the first successful load wins and later calls
 * report where that one came from.
 */
final class NativeLibraryLoader {

    static final String LIBRARY_FILE = "libitsclock.so";

    private static String loadedFrom;

    private NativeLibraryLoader() {}

    /** The class path resource for this JVM's architecture, e.g. {@code org/itsrt/clock/native/linux-amd64/libitsclock.so}. */
    static String defaultResource(String osArch) {
        return "org/itsrt/clock/native/linux-" + osArch.toLowerCase(Locale.ROOT) + "/" + LIBRARY_FILE;
    }

    /** Where the loaded library came from (a URL or a path), or null when none is loaded. */
    static synchronized String loadedFrom() {
        return loadedFrom;
    }

    /** Loads the library from an explicit file. */
    static synchronized String loadFile(Path file) throws ClockUnavailableException {
        if (loadedFrom != null) {
            return loadedFrom;
        }
        if (!Files.isRegularFile(file)) {
            throw new ClockUnavailableException("native library " + file + " does not exist");
        }
        try {
            System.load(file.toAbsolutePath().toString());
        } catch (UnsatisfiedLinkError | SecurityException e) {
            throw new ClockUnavailableException("native library " + file + " failed to load: " + e.getMessage(), e);
        }
        loadedFrom = file.toAbsolutePath().toString();
        return loadedFrom;
    }

    /** Loads the library from a class path resource. */
    static synchronized String loadResource(String resource, ClassLoader loader) throws ClockUnavailableException {
        if (loadedFrom != null) {
            return loadedFrom;
        }
        URL url = loader == null ? ClassLoader.getSystemResource(resource) : loader.getResource(resource);
        if (url == null) {
            throw new ClockUnavailableException(
                    "native library " + resource + " is not on the class path (it is built into the its-clock jar)");
        }
        Path tmp = null;
        try {
            tmp = Files.createTempFile("libitsclock-", ".so");
            try (InputStream in = url.openStream()) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            System.load(tmp.toAbsolutePath().toString());
        } catch (IOException e) {
            throw new ClockUnavailableException("native library " + url + " could not be extracted: " + e, e);
        } catch (UnsatisfiedLinkError | SecurityException e) {
            throw new ClockUnavailableException("native library " + url + " failed to load: " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    tmp.toFile().deleteOnExit();
                }
            }
        }
        loadedFrom = url.toString();
        return loadedFrom;
    }
}
