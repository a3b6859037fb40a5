package org.itsrt.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What {@code linear.json} holds: {@code y_scaled = intercept + sum(coefficients[i] * x[i])} over
 * the scaled window, oldest reading first, feature-major within a reading.
 */
public record LinearModel(List<Feature> features, int window, double[] coefficients, double intercept) {

    public LinearModel {
        features = List.copyOf(features);
        coefficients = coefficients.clone();
    }

    @Override
    public double[] coefficients() {
        return coefficients.clone();
    }

    /** The scaled prediction for one encoded window starting at {@code offset} of {@code input}. */
    double predictScaled(float[] input, int offset) {
        double sum = intercept;
        for (int i = 0; i < coefficients.length; i++) {
            sum += coefficients[i] * input[offset + i];
        }
        return sum;
    }

    static LinearModel fromJson(BundleJson json, ModelSpec model) {
        JsonNode root = json.root();
        List<Feature> features = ModelSpec.features(json, root);
        if (!features.equals(model.features())) {
            throw json.problem(
                    "features", "are " + names(features) + " but model.json's are " + names(model.features()));
        }
        int window = json.positiveInt(root, "", "window");
        if (window != model.window()) {
            throw json.problem("window", "is " + window + " but model.json's is " + model.window());
        }
        JsonNode array = json.array(root, "", "coefficients");
        if (array.size() != model.inputWidth()) {
            throw json.problem(
                    "coefficients",
                    "expected " + model.inputWidth() + " numbers (window " + window + " x " + features.size()
                            + " features), found " + array.size());
        }
        double[] coefficients = new double[array.size()];
        for (int i = 0; i < coefficients.length; i++) {
            coefficients[i] = json.number(array.get(i), "coefficients[" + i + "]");
        }
        return new LinearModel(features, window, coefficients, json.number(root, "", "intercept"));
    }

    private static List<String> names(List<Feature> features) {
        return features.stream().map(Feature::bundleName).toList();
    }
}
