"""The board frame and the calibration file: schema, geometry, the calibrate tool."""
