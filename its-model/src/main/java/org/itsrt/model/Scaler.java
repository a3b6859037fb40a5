package org.itsrt.model;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What {@code scaler.json} holds: the min-max range of each scaled input feature.
 *
 * @param flow  the range of flow, also the target's
 * @param speed the range of speed and its fill for unknown speeds; null when no feature uses it
 */
public record Scaler(FeatureRange flow, FeatureRange speed) {

    static Scaler fromJson(BundleJson json, ModelSpec model) {
        FeatureRange flow = range(json, "flow", false);
        FeatureRange speed = null;
        if (model.features().contains(Feature.SPEED)) {
            speed = range(json, "speed", true);
        }
        return new Scaler(flow, speed);
    }

    private static FeatureRange range(BundleJson json, String feature, boolean needsFill) {
        JsonNode node = json.object(json.root(), "", feature);
        double min = json.number(node, feature, "min");
        double max = json.number(node, feature, "max");
        if (!(max > min)) {
            throw json.problem(feature, "max must exceed min, found min " + min + " and max " + max);
        }
        double fill = needsFill ? json.number(node, feature, "fill") : Double.NaN;
        return new FeatureRange(min, max, fill);
    }
}
