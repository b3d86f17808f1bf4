"""What earlier runs' boss fights showed: each fight's record (the forecast it was entered on, the result,
what the stretch before it cost) and the calibration of the bars a plan trains for, drawn from them."""
