"""Pixels to observations: dice and checkers from calibrated camera frames.

Never imports `companion`, flask or serial (see ARCHITECTURE.md).
"""
