/**
 * The options more than one command takes, each declared once as a picocli mixin: a command
 * writes {@code @Mixin SeedOption seed;} instead of its own {@code @Option(names = "--seed")},
 * so the option's name, syntax and wording are the same wherever it appears. A command whose
 * default differs says so in its own description; the mixin leaves a value not given as null.
 */
package org.itsrt.cli.options;
