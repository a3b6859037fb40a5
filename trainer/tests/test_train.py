"""End to end on a small generated table: train briefly, export, reload, compare."""
import json

import numpy as np
import pytest

from itsrt_trainer import train
from itsrt_trainer.models import score


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    from conftest import canonical_table

    tmp = tmp_path_factory.mktemp("bundle")
    table = tmp / "readings.csv"
    # 2018-03-21..24: both the 80/20 cutoff and the study's (03-24 06:15) fall inside.
    canonical_table(days=4, start="2018-03-21").to_csv(table, index=False)
    out = tmp / "lstm-test"
    train.main(["--data", str(table), "--out", str(out), "--architecture", "tiny", "--epochs", "3",
                "--splits", "chrono-80-20,study", "--features", "flow,speed,tod_sin,tod_cos",
                "--reference-count", "32"])
    return out


def test_bundle_has_every_file(bundle):
    for name in ("saved_model/saved_model.pb", "model.onnx", "model.json", "scaler.json", "linear.json",
                 "reference.json", "metrics.md", "metrics.json", "model-card.md"):
        assert (bundle / name).is_file(), name


def test_the_onnx_graph_is_recorded_and_runs_onnx_recurrent_operators(bundle):
    import onnx

    section = json.loads((bundle / "model.json").read_text())["onnx"]
    assert {k: section[k] for k in ("file", "input", "output", "opset")} == {
        "file": "model.onnx", "input": "flows", "output": "flow_next", "opset": 17}
    assert section["twin_max_abs_difference"] <= 1e-5
    graph = onnx.load(str(bundle / "model.onnx")).graph
    operators = [node.op_type for node in graph.node]
    # ONNX's own LSTM operator, one per layer, not a Loop stepping through the window.
    assert operators.count("LSTM") == 2 and "Loop" not in operators
    assert sorted(set(operators)) == section["operators"]
    assert [i.name for i in graph.input] == ["flows"] and [o.name for o in graph.output] == ["flow_next"]
    dims = graph.input[0].type.tensor_type.shape.dim
    assert not dims[0].HasField("dim_value") and [d.dim_value for d in dims[1:]] == [12, 4]


def test_a_gru_bundle_has_the_graph_and_no_kernel_rows(tmp_path):
    import onnx

    from conftest import canonical_table

    table = tmp_path / "readings.csv"
    canonical_table(days=4, start="2018-03-21").to_csv(table, index=False)
    out = tmp_path / "gru-test"
    assert train.main(["--data", str(table), "--out", str(out), "--architecture", "tiny", "--cell", "gru",
                       "--epochs", "2", "--splits", "chrono-80-20", "--linear-only-baseline",
                       "--features", "flow,speed", "--shipped-features-only", "--reference-count", "16"]) == 0

    model = json.loads((out / "model.json").read_text())
    assert [(layer["name"], layer["type"]) for layer in model["layers"]] == [
        ("gru_1", "gru"), ("gru_2", "gru"), ("dense_1", "dense"), ("flow_next", "dense")]
    operators = [node.op_type for node in onnx.load(str(out / "model.onnx")).graph.node]
    assert operators.count("GRU") == 2 and "Loop" not in operators
    metrics = json.loads((out / "metrics.json").read_text())
    assert "engines" not in metrics  # the kernel's weight precisions are the LSTM's
    assert metrics["results"][0]["rows"][0]["model"] == "GRU"
    assert [r["rows"][0]["features"] for r in metrics["results"]] == ["flow+speed"]  # no flow-only variant
    assert "GRU cells" in (out / "model-card.md").read_text()


def test_onnx_export_adds_the_graph_to_a_bundle_trained_before(bundle, tmp_path):
    import shutil

    from itsrt_trainer import onnx_export

    copy = tmp_path / "copy"
    shutil.copytree(bundle, copy)
    (copy / "model.onnx").unlink()
    model = json.loads((copy / "model.json").read_text())
    expected = model.pop("onnx")
    (copy / "model.json").write_text(json.dumps(model))

    assert onnx_export.main(["--bundle", str(copy)]) == 0

    # The same graph from the same weights (names of free dimensions aside, which tf2onnx counts).
    import onnx
    from onnx import numpy_helper

    mine, trained = (onnx.load(str(b / "model.onnx")).graph for b in (copy, bundle))
    assert [n.op_type for n in mine.node] == [n.op_type for n in trained.node]

    def weights(graph):
        arrays = (numpy_helper.to_array(t) for t in graph.initializer)
        return sorted((a.shape, a.tobytes()) for a in arrays if a.dtype == np.float32 and a.size > 1)

    assert weights(mine) == weights(trained) and len(weights(mine)) >= 6
    assert json.loads((copy / "model.json").read_text())["onnx"] == expected
    assert onnx_export.main(["--bundle", str(tmp_path / "nowhere")]) == 2


def test_a_twin_whose_weights_do_not_fit_the_layers_is_refused():
    import numpy as np

    from itsrt_trainer.models import layer_descriptions
    from itsrt_trainer.onnx_export import OnnxExportError, keras2_twin

    layers = layer_descriptions("tiny")
    with pytest.raises(OnnxExportError, match="layer 'lstm_1': no weights"):
        keras2_twin(layers, 12, 1, {"dense_1__kernel": np.zeros((8, 8), np.float32)})


def test_saved_model_reproduces_reference_predictions(bundle):
    import tensorflow as tf

    reference = json.loads((bundle / "reference.json").read_text())
    scaler = json.loads((bundle / "scaler.json").read_text())
    loaded = tf.saved_model.load(str(bundle / "saved_model"))
    flows = np.array(reference["flows"])
    x_flow = (flows - scaler["flow"]["min"]) / (scaler["flow"]["max"] - scaler["flow"]["min"])
    speeds = np.array([[scaler["speed"]["fill"] if v is None else v for v in row]
                       for row in reference["speeds"]], dtype=np.float64)
    x_speed = (speeds - scaler["speed"]["min"]) / (scaler["speed"]["max"] - scaler["speed"]["min"])
    newest = np.array([t.rstrip("Z") for t in reference["newest_ts_utc"]], dtype="datetime64[s]")
    # Local time of day of each of the 12 readings (the fixture is in March, after the DST change
    # for the test windows: UTC-7).
    times = newest[:, None] - np.arange(11, -1, -1)[None, :] * np.timedelta64(300, "s")
    seconds = ((times - np.timedelta64(7, "h")).astype("int64") % 86400).astype(np.float64)
    x = np.stack([x_flow, x_speed, np.sin(2 * np.pi * seconds / 86400), np.cos(2 * np.pi * seconds / 86400)],
                 axis=-1).astype(np.float32)
    out = loaded.signatures["serve"](flows=tf.constant(x))["flow_next"].numpy().reshape(-1)
    np.testing.assert_allclose(out, reference["lstm_scaled"], atol=1e-6)
    linear = json.loads((bundle / "linear.json").read_text())
    manual = x.reshape(len(x), -1) @ np.array(linear["coefficients"]) + linear["intercept"]
    np.testing.assert_allclose(manual, reference["linear_scaled"], atol=1e-9)


def test_weights_signature_names_every_variable(bundle):
    import tensorflow as tf

    loaded = tf.saved_model.load(str(bundle / "saved_model"))
    weights = {k: v.numpy() for k, v in loaded.signatures["weights"]().items()}
    assert weights["lstm_1__lstm_cell__kernel"].shape == (4, 4 * 16)
    assert weights["lstm_1__lstm_cell__recurrent_kernel"].shape == (16, 4 * 16)
    assert weights["lstm_2__lstm_cell__bias"].shape == (4 * 8,)
    assert weights["flow_next__kernel"].shape == (8, 1)
    model = json.loads((bundle / "model.json").read_text())
    assert [layer["name"] for layer in model["layers"]] == ["lstm_1", "lstm_2", "dense_1", "flow_next"]
    assert model["features"] == ["flow", "speed", "tod_sin", "tod_cos"]


def test_metrics_table_covers_both_splits_and_the_flow_only_variant(bundle):
    metrics = json.loads((bundle / "metrics.json").read_text())
    seen = {(r["split"]["name"], row["model"], row["features"]) for r in metrics["results"] for row in r["rows"]}
    for split in ("chrono-80-20", "study"):
        for features in ("flow", "flow+speed+tod_sin+tod_cos"):
            for model in ("LSTM", "Linear regression", "Random forest", "Gradient boosting", "Decision tree"):
                assert (split, model, features) in seen
    text = (bundle / "metrics.md").read_text()
    assert "## Split `study`" in text and "The study's Table 2" in text
    assert "SYNTHETIC" in (bundle / "model-card.md").read_text()


def test_persistence_and_the_jvm_engines_reach_metrics_and_card(bundle):
    metrics = json.loads((bundle / "metrics.json").read_text())
    for result in metrics["results"]:
        naive = [row for row in result["rows"] if row["model"].startswith("Persistence")]
        assert len(naive) == 1 and naive[0]["scores"]["n"] == result["test_windows"]
    engines = metrics["engines"]
    assert engines["split"] == "chrono-80-20"
    assert [row["engine"] for row in engines["rows"]] == ["tensorflow", "kernel", "kernel-bf16", "kernel-int8"]
    lstm = next(row for row in metrics["results"][0]["rows"] if row["model"] == "LSTM")
    assert engines["rows"][0]["scores"]["mse"] == pytest.approx(lstm["scores"]["mse"], rel=1e-6)
    card = (bundle / "model-card.md").read_text()
    assert "persistence (next flow = last flow)" in card and "kernel-int8" in card
    assert "kernel-bf16" in (bundle / "metrics.md").read_text()


def test_rescore_fills_an_existing_bundle_without_retraining(bundle, tmp_path):
    import shutil

    from conftest import canonical_table
    from itsrt_trainer import rescore

    copy = tmp_path / "copy"
    shutil.copytree(bundle, copy)
    metrics = json.loads((copy / "metrics.json").read_text())
    del metrics["engines"]
    for result in metrics["results"]:
        result["rows"] = [row for row in result["rows"] if not row["model"].startswith("Persistence")]
    (copy / "metrics.json").write_text(json.dumps(metrics))
    table = tmp_path / "readings.csv"
    canonical_table(days=4, start="2018-03-21").to_csv(table, index=False)

    assert rescore.main(["--data", str(table), "--bundle", str(copy)]) == 0

    rescored = json.loads((copy / "metrics.json").read_text())
    trained = json.loads((bundle / "metrics.json").read_text())
    assert list(rescored) == list(trained)
    for mine, theirs in zip(rescored["engines"]["rows"], trained["engines"]["rows"]):
        assert mine["engine"] == theirs["engine"]
        # The SavedModel's float32 outputs against Keras' own: equal to float32 rounding.
        assert mine["scores"]["mse"] == pytest.approx(theirs["scores"]["mse"], rel=1e-5)
    for mine, theirs in zip(rescored["results"], trained["results"]):
        assert mine["rows"][-1] == theirs["rows"][-1]  # the persistence row, last in both
    card = (copy / "model-card.md").read_text()
    assert card.count("## Against the naive forecast") == 1 and card.index("## Against") < card.index("## Versions")
    other = tmp_path / "other.csv"
    canonical_table(days=3, start="2018-03-21").to_csv(other, index=False)
    assert rescore.main(["--data", str(other), "--bundle", str(copy)]) == 2


def test_scores_on_known_values():
    s = score(np.array([100.0, 200.0, 0.0]), np.array([110.0, 180.0, 5.0]))
    assert s.mse == pytest.approx((100 + 400 + 25) / 3)
    assert s.mape == pytest.approx((0.1 + 0.1) / 2 * 100)  # the zero flow is left out
    assert s.n_mape == 2
    assert s.r2 == pytest.approx(1 - 525 / np.sum((np.array([100, 200, 0]) - 100) ** 2))


def test_bad_features_are_refused(capsys):
    with pytest.raises(SystemExit):
        train.parse_args(["--data", "x", "--out", "y", "--features", "speed"])
    assert "must start with 'flow'" in capsys.readouterr().err


def test_dropout_rates_are_parsed_and_checked():
    assert train.parse_dropout("0.2,0.25") == (0.2, 0.25)
    for bad in ("0.2", "0.2,1.0", "a,b", "-0.1,0.2"):
        with pytest.raises(Exception, match="two rates"):
            train.parse_dropout(bad)
