package org.itsrt.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Every option of the suite is declared once: an option name that two command classes need
 * comes from one mixin both use, never from an {@code @Option} written twice. The suite's classes
 * are every class of {@code org.itsrt} on this module's class path, which holds every module with
 * a command line.
 */
class OptionDeclaredOnceTest {

    @Test
    void noTwoCommandClassesDeclareTheSameOptionName() throws Exception {
        List<Class<?>> commands = commandClasses();
        Map<String, TreeSet<String>> declaredBy = new TreeMap<>();
        for (Class<?> command : commands) {
            for (String name : optionNames(command)) {
                declaredBy.computeIfAbsent(name, n -> new TreeSet<>()).add(command.getName());
            }
        }
        Map<String, TreeSet<String>> twice = new TreeMap<>();
        declaredBy.forEach((name, classes) -> {
            if (classes.size() > 1) {
                twice.put(name, classes);
            }
        });

        // The scan found the suite: the run commands and the instruments' command lines.
        assertThat(commands)
                .extracting(Class::getSimpleName)
                .contains("DemoCommand", "TuneCommand", "ProducerCommand", "ProbeCommand", "BudgetCommand");
        assertThat(twice)
                .as("option names declared by more than one command class, outside a mixin")
                .isEmpty();
    }

    /** The option names a class declares itself, on fields or methods (its mixins' are theirs). */
    private static List<String> optionNames(Class<?> type) {
        List<String> names = new ArrayList<>();
        for (Field field : type.getDeclaredFields()) {
            Option option = field.getAnnotation(Option.class);
            if (option != null) {
                names.addAll(List.of(option.names()));
            }
        }
        for (Method method : type.getDeclaredMethods()) {
            Option option = method.getAnnotation(Option.class);
            if (option != null) {
                names.addAll(List.of(option.names()));
            }
        }
        return names;
    }

    private static List<Class<?>> commandClasses() throws IOException, ClassNotFoundException {
        return classes().stream()
                .filter(type -> type.isAnnotationPresent(Command.class))
                .toList();
    }

    private static List<Class<?>> classes() throws IOException, ClassNotFoundException {
        List<Class<?>> classes = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            for (String name : classNames(Path.of(entry))) {
                classes.add(Class.forName(name, false, OptionDeclaredOnceTest.class.getClassLoader()));
            }
        }
        return classes;
    }

    /** The {@code org.itsrt} main classes in a class-path entry: a module's classes or its jar. */
    private static List<String> classNames(Path entry) throws IOException {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(entry)) {
            if (entry.toString().contains("test-classes")) {
                return names;
            }
            Path root = entry.resolve("org/itsrt");
            if (!Files.isDirectory(root)) {
                return names;
            }
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".class"))
                        .map(f -> entry.relativize(f).toString())
                        .forEach(f -> names.add(className(f)));
            }
        } else if (entry.getFileName().toString().endsWith(".jar") && Files.isRegularFile(entry)) {
            try (JarFile jar = new JarFile(entry.toFile())) {
                jar.stream()
                        .map(java.util.zip.ZipEntry::getName)
                        .filter(n -> n.startsWith("org/itsrt/") && n.endsWith(".class"))
                        .forEach(n -> names.add(className(n)));
            }
        }
        return names;
    }

    private static String className(String file) {
        return file.substring(0, file.length() - ".class".length())
                .replace('/', '.')
                .replace('\\', '.');
    }
}
