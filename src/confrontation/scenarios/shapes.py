"""The coordinates of a shape placed on the table by a scenario file: a rectangle ``x0 y0
x1 y1`` or a circle ``x y radius``, in cm from the lower-left corner. One model for the
areas of chapter 20 (``[[areas]]``, III-A-2) and the zones of the control-point pack
(``[[control_points.zones]]``, CP-ZONE)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

NEEDS: dict[str, tuple[str, ...]] = {
    "rect": ("x0", "y0", "x1", "y1"),
    "circle": ("x", "y", "radius"),
}
"""The coordinates each placed shape takes (other shapes take none)."""
KEYS = ("x0", "y0", "x1", "y1", "x", "y", "radius")


class PlacedShape(BaseModel):
    """The coordinate fields of a placed shape (the ``shape`` field is the subclass's)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    x0: float | None = None
    y0: float | None = None
    x1: float | None = None
    y1: float | None = None
    x: float | None = None
    y: float | None = None
    radius: float | None = Field(default=None, gt=0)

    def check_coords(self, shape: str, what: str) -> None:
        """A ``ValueError`` when a coordinate ``shape`` needs is missing or one it does not
        take is given (``what``: "area", "zone", for the message)."""
        needs = NEEDS.get(shape, ())
        for key in needs:
            if getattr(self, key) is None:
                raise ValueError(f"a '{shape}' {what} needs {key}")
        for key in KEYS:
            if key not in needs and getattr(self, key) is not None:
                raise ValueError(f"{key} does not belong to a '{shape}' {what}")

    def numbers(self, shape: str) -> tuple[float, ...]:
        """The shape's numbers (rect: x0 y0 x1 y1; circle: x y radius; others: none)."""
        return tuple(float(getattr(self, k)) for k in NEEDS.get(shape, ()))
