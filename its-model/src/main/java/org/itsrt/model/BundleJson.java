package org.itsrt.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** One JSON file of a bundle; every accessor fails with a message naming the file and the field. */
final class BundleJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path file;
    private final JsonNode root;

    private BundleJson(Path file, JsonNode root) {
        this.file = file;
        this.root = root;
    }

    static BundleJson read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ModelBundleException(
                    file,
                    "missing; a model bundle holds model.json, scaler.json, "
                            + "linear.json and saved_model/ (docs/model-bundle.md)");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new ModelBundleException(
                    file,
                    "not valid JSON: " + e.getOriginalMessage()
                            + (e.getLocation() == null
                                    ? ""
                                    : " (line " + e.getLocation().getLineNr() + ", column "
                                            + e.getLocation().getColumnNr() + ")"),
                    e);
        } catch (IOException e) {
            throw new ModelBundleException(file, "cannot be read: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new ModelBundleException(file, "expected a JSON object");
        }
        return new BundleJson(file, root);
    }

    Path file() {
        return file;
    }

    JsonNode root() {
        return root;
    }

    ModelBundleException problem(String field, String problem) {
        return new ModelBundleException(file, field + ": " + problem);
    }

    JsonNode field(JsonNode parent, String where, String name) {
        JsonNode value = parent.get(name);
        if (value == null || value.isNull()) {
            throw problem(join(where, name), "missing");
        }
        return value;
    }

    JsonNode object(JsonNode parent, String where, String name) {
        JsonNode value = field(parent, where, name);
        if (!value.isObject()) {
            throw problem(join(where, name), "expected an object, found " + value);
        }
        return value;
    }

    JsonNode array(JsonNode parent, String where, String name) {
        JsonNode value = field(parent, where, name);
        if (!value.isArray()) {
            throw problem(join(where, name), "expected an array, found " + value);
        }
        return value;
    }

    String text(JsonNode parent, String where, String name) {
        JsonNode value = field(parent, where, name);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw problem(join(where, name), "expected a non-empty string, found " + value);
        }
        return value.asText();
    }

    int positiveInt(JsonNode parent, String where, String name) {
        JsonNode value = field(parent, where, name);
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() <= 0) {
            throw problem(join(where, name), "expected a positive integer, found " + value);
        }
        return value.intValue();
    }

    double number(JsonNode parent, String where, String name) {
        return number(field(parent, where, name), join(where, name));
    }

    double number(JsonNode value, String where) {
        if (!value.isNumber() || !Double.isFinite(value.doubleValue())) {
            throw problem(where, "expected a finite number, found " + value);
        }
        return value.doubleValue();
    }

    boolean bool(JsonNode parent, String where, String name, boolean absent) {
        JsonNode value = parent.get(name);
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isBoolean()) {
            throw problem(join(where, name), "expected true or false, found " + value);
        }
        return value.booleanValue();
    }

    private static String join(String where, String name) {
        return where.isEmpty() ? name : where + "." + name;
    }
}
