"""The persistence baseline and the JVM kernel's weight precisions as the trainer reproduces them."""
import numpy as np
import pytest

from itsrt_trainer import precision
from itsrt_trainer.models import ARCHITECTURES, build_network, layer_descriptions, persistence


def test_persistence_predicts_the_last_reading():
    flows = np.arange(24, dtype=np.float64).reshape(2, 12)
    np.testing.assert_array_equal(persistence(flows), [11.0, 23.0])


def test_bf16_rounds_to_nearest_even():
    ulp = 2.0 ** -7  # bfloat16's step just above 1
    values = np.array([1 + ulp / 2, 1 + 3 * ulp / 2, 1 + ulp / 2 + 2.0 ** -20, -2.5], dtype=np.float32)
    np.testing.assert_array_equal(precision.round_bf16(values), np.array([1, 1 + 2 * ulp, 1 + ulp, -2.5],
                                                                         dtype=np.float32))


def test_int8_scales_each_output_column():
    w = np.array([[1.0, -0.5, 0.0], [-2.0, 0.25, 0.0]], dtype=np.float32)
    r = precision.round_int8(w)
    scale0 = np.float32(2.0) / np.float32(127)
    assert r[1, 0] == pytest.approx(-2.0, abs=1e-6)
    assert r[0, 0] == pytest.approx(np.floor(np.float32(1.0) / scale0 + np.float32(0.5)) * scale0)
    assert r[0, 1] == pytest.approx(-0.5, abs=1e-6)  # its column's largest weight is exact
    np.testing.assert_array_equal(r[:, 2], [0.0, 0.0])  # an all-zero column stays zero
    assert np.all(np.abs(r - w) <= np.abs(w).max(axis=0) / 127 / 2 + 1e-7)


def test_rounding_leaves_biases_alone():
    weights = {"dense_1__kernel": np.full((3, 2), 0.1, np.float32), "dense_1__bias": np.full(2, 0.1, np.float32)}
    rounded = precision.rounded(weights, "bf16")
    np.testing.assert_array_equal(rounded["dense_1__bias"], weights["dense_1__bias"])
    assert not np.array_equal(rounded["dense_1__kernel"], weights["dense_1__kernel"])
    with pytest.raises(ValueError, match="fp32, bf16, int8"):
        precision.rounded(weights, "fp16")


def test_the_numpy_forward_pass_equals_keras():
    model = build_network(4, "tiny")
    x = np.random.default_rng(5).random((7, 12, 4), dtype=np.float32)
    expected = np.asarray(model(x, training=False)).reshape(-1)
    got = precision.forward(precision.weights_of_keras(model), layer_descriptions("tiny"), x)
    np.testing.assert_allclose(got, expected, atol=1e-5)
    assert ARCHITECTURES["tiny"][0] == 16


def test_engine_rows_measure_each_precision_against_the_reference():
    import keras

    # A seeded network: the output is a ReLU, and some random starts leave it at 0 for every input,
    # where no rounding of the weights can move a prediction.
    keras.utils.set_random_seed(4)
    model = build_network(4, "tiny")
    x = np.random.default_rng(6).random((50, 12, 4), dtype=np.float32)
    reference = np.asarray(model(x, training=False)).reshape(-1)
    assert reference.max() > 0, "the network's output is 0 for every input: pick another seed"
    target = reference * 100 + np.random.default_rng(7).normal(0, 1, len(x))
    rows = precision.engine_rows(precision.weights_of_keras(model), layer_descriptions("tiny"), x, target,
                                 reference, lambda s: s * 100)
    assert [r["engine"] for r in rows] == ["tensorflow", "kernel", "kernel-bf16", "kernel-int8"]
    assert rows[1]["max_abs_diff"] < 1e-3  # float32 weights: the same network
    assert 0 < rows[2]["max_abs_diff"] < 1  # rounded weights move predictions, a little
    assert 0 < rows[3]["max_abs_diff"] < 2
