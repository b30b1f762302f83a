# The plots drawn from compare.sh's JSON: delta with confidence intervals, sweep.
# shellcheck shell=bash
plot_json_metric() { :; }
