"""The checker reader's named thresholds (`vision.board.BoardReader`), in one frozen type
that the reader's parts share without importing the reader."""

from __future__ import annotations

from dataclasses import dataclass

from vision.settings import check_limits

# Values the reader cannot work with (a picture of no pixels or of billions, a checker
# larger than two points, a margin of 0 divided by); every other number is 0 or more.
LIMITS = {
    "px_per_mm": (0.25, 6.0),
    "margin_mm": (0.0, 100.0),
    "checker_share": (0.3, 1.2),
    "checker_share_min": (0.3, 1.2),
    "size_evidence": (1, 30),
    "radius_scales": (0.5, 2.0),
    "inside_radii": (0.05, 1.0),
    "colour_share": (0.05, 1.0),
    "lateral_share": (0.0, 1.0),
    "refine_steps": (0.25, 50.0),
    "circle_soft": (0.01, 1.0),
    "fit_tolerance": (0.01, 10.0),
    "colour_gap_min": (1.0, 500.0),
    "surface_step_mm": (0.5, 50.0),
    "net_opinion": (0.0, 1.0),
    "net_sure": (0.0, 1.0),
    "net_disagree": (0.0, 1.0),
}


@dataclass(frozen=True)
class BoardSettings:
    px_per_mm: float = 1.5
    margin_mm: float = 8.0  # of frame kept round the playing surface
    checker_share: float = 0.94  # checker diameter / point width, before a board shows its own
    # A board's own checker size, measured on the first frame with `size_evidence`
    # neighbours in rows, replaces the above where it differs by more than
    # `size_change_min` (within that the rings and the fit read both alike).
    size_evidence: int = 6
    size_change_min: float = 0.04
    checker_share_min: float = 0.7
    radius_scales: tuple[float, ...] = (0.92, 1.0, 1.06)  # checker sizes tried, of the above
    # (at least two: the second is the checker's own, whose rim the inside rings are in)
    edge_min: float = 28.0  # Sobel magnitude (about 4x grey levels per pixel) of an edge
    # (28, not 48 as first set: a dark checker's rim on a dark point or board is 20-40; on
    # the wide styles, seed 7, 61/120 boards right against 50 at 48, 54 at 32, 64 at 24; the
    # default set 300/300 at 28 and 32, 299 at 48, 297 at 24; the real photos alike)
    candidate_min: float = 0.35  # ring share on any edges where a checker may be
    circle_min: float = 0.78  # ring share on edges facing the centre: a fully visible checker
    # (0.78: 299/300 boards right on each of three benchmark seeds, against 298, 298, 299 at 0.8
    # and fewer at 0.72, where the triangles' sides start to make circles)
    circle_soft: float = 0.1  # margin (ring share) that counts as a fully clear decision
    facing_min: float = 0.88  # cos^2 of the largest angle between an edge and the radius
    inside_spread: float = 30.0  # grey levels (any channel) inside a checker's rim, round it
    # rings inside the rim (of its radius) tried for one even colour: the best counts (a logo
    # or a dished centre breaks the inner ones, a bevel the outer one)
    inside_radii: tuple[float, ...] = (0.4, 0.6, 0.75)
    colour_share: float = 0.6  # of the checker's diameter: the square its colour is read in
    lateral_share: float = 0.1  # off-axis search, in point widths, each side
    refine_steps: tuple[float, ...] = (4.0, 2.0)  # px: a checker's centre searched 3x3 at each
    fit_tolerance: float = 0.3  # checker diameters a circle may sit off its expected place
    fit_drift: float = 0.04  # ... plus this per checker, for gaps in the row
    colour_gap_min: float = 20.0  # weighted Lab distance between the two colours' checkers
    # A rim found all round (its share of the ring at least `rim_sure`) marks a checker even
    # where no ring inside it is one even colour (logos, dished or marbled tops), as long as
    # `inside_min` of one is.
    rim_sure: float = 0.9
    inside_min: float = 0.4
    # Two counts whose layouts fit the circles within this (cost, 1 = at the tolerance):
    # the pile cannot be counted from above, and the point's confidence is `unsure_count`.
    count_margin: float = 0.3
    # A point's surface beyond its checkers, sampled every `surface_step_mm`, unlike its
    # colour's other points by `surface_tolerance` (Lab, lightness half-weighted) over more
    # than `unexplained_unsure` of a checker's area: something unread lies there (unsure).
    surface_step_mm: float = 3.0
    surface_tolerance: float = 22.0
    unexplained_unsure: float = 0.6
    unsure_count: float = 0.4
    # The strip network's second opinion (`vision.board_net`): where its count differs from
    # the rings', the point is unsure (`net_disagree`), and where the network gives its own
    # at odds of `net_sure` or more, or the rings' count was unsure already, the network's
    # count is read instead (its odds top out at about 0.95: it was trained with labels
    # smoothed by 0.05). `net_check = false` reads by the rings alone.
    # A network whose count has odds below `net_opinion` is unsure itself: it is not heard.
    net_check: bool = True
    net_opinion: float = 0.5
    net_sure: float = 0.9
    net_disagree: float = 0.4

    def __post_init__(self) -> None:
        check_limits(self, LIMITS)
        if len(self.radius_scales) < 2:  # the reader takes the second for the checker's own
            raise ValueError(f"radius_scales must list 2 sizes or more, got {self.radius_scales}")
