"""The layer clock of `bench.move_profile --layers`: each layer is charged only its own time."""
import time
import types

from bench.move_layers import LayerClock


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_layer_is_charged_its_own_time_not_its_nested_layers():
    inner = types.SimpleNamespace(work=lambda: _spin(0.03))

    def outer_work():
        _spin(0.02)
        inner.work()

    outer = types.SimpleNamespace(work=outer_work)
    clock = LayerClock()
    clock.wrap(outer, "work", "outer")
    clock.wrap(inner, "work", "inner")
    outer.work()
    assert clock.calls == {"outer": 1, "inner": 1}
    assert 0.02 <= clock.own["outer"] < 0.03
    assert 0.03 <= clock.own["inner"] < 0.04
    clock.reset()
    assert not clock.own and not clock.calls
