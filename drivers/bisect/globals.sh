# The globals bisect.sh and drivers/bisect/*.sh share, each declared once,
# here, as drivers/core/globals.sh does for run.sh's files: every file that
# uses one of these sources this file; only the first source declares.
# shellcheck shell=bash disable=SC2034  # declarations only: each is used in the files named
[ -z "${MMDELTA_BISECT_GLOBALS_DECLARED:-}" ] || return 0
MMDELTA_BISECT_GLOBALS_DECLARED=1

# shellcheck source=drivers/core/globals.sh
source "${BASH_SOURCE[0]%/*}/../core/globals.sh"  # MMDELTA_ROOT, SETS, NAME

# --- from the command line (bisect.sh) ----------------------------------
# The results root, the --vm-* options as typed (for every run.sh), and the
# positional arguments: the config, then the images or GOOD BAD.
RESULTS=${MMDELTA_RESULTS:-results}
VM_ARGS=()
POS=()
# --set KEY=VALUE as run.sh's options (bisect_run_args).
SET_ARGS=()
# -i: iterations per point; --metric (the bench's primary when not given);
# --threshold in percent, or empty for the midpoint.
ITERATIONS=""
# Iterations a point without -i: two where icount is exact, more where the
# iterations of one boot spread (the resolution table, drivers/vm/).
BISECT_EXACT_ITERATIONS=2
BISECT_NOISY_ITERATIONS=10
# 1 when points are judged by the gate's test rather than the midpoint
# rule (measure.sh: bisect_noise_check), kept in WORK/noisy for tree steps.
BISECT_NOISY=0
METRIC=""
THRESHOLD=""
# The config as run.sh takes it (a path made absolute), and its bench.
CONFIG=""
BENCH=""
# The metric's unit and direction (lower|higher; none for a counter), from
# the bench's --describe or from the describe of the monitor that records it.
METRIC_UNIT=""
METRIC_BETTER=""
# The config's MONITORS (as resolved, --set included): a monitor's metric
# can be bisected too.  Kept in .bisect/monitors for the tree's steps.
BISECT_MONITORS=""
# What every run.sh --kernel of the bisection gets besides the image: the
# --set and --vm-* options.
RUN_ARGS=()
# The bisection's directory (RESULTS/NAME), a results root for its runs,
# and bisect.sh's own files in it (OUT/.bisect: steps.tsv, logs, argv).
OUT=""
WORK=""

# --slurm (0 or 1), --jobs K (empty: not given) and the --slurm-opt values;
# what every point's run.sh gets with --slurm (submit and follow the job).
SLURM=0
JOBS=""
SLURM_OPTS=()
SLURM_ARGS=()
# The round the points measured now belong to: the ends and every later
# set of points measured together (one point a round without --slurm).
ROUND=0
# The subshells measuring the points of a round at once, for the INT/TERM trap.
BISECT_ROUND_PIDS=()

# --first: name one step, as git bisect does (0: every step of the series).
BISECT_FIRST=0
# --dry-run (bisect.sh, series.sh): say what would be built and booted, and
# how long it would take, then stop (dryrun.sh).
BISECT_DRY_RUN=0
# Every step: each point's state (m measured, skip, - not yet), the answer
# of each pair of consecutive measured points ("A B" -> 1 differ, 0 not),
# and the steps found, in order ("culprit LAST_GOOD FIRST_BAD" or
# "ambiguous LAST_GOOD FIRST_BAD CANDIDATE...", run names).
STATE=()
declare -gA BISECT_DIFFER=()
CHANGES=()

# --- images form (bisect.sh) ---------------------------------------------
# The images, oldest first, as absolute paths, and their runs' names.
IMAGES=()
LABELS=()

# --- tree form (tree.sh) --------------------------------------------------
# Every step in a tree: GOOD and the commits to BAD, oldest first.
COMMITS=()
# --tree, --build and --image as given (the tree made absolute); the
# commits as typed and as hashes.
TREE=""
BUILD=""
IMAGE_PATH=""
GOOD=""
BAD=""
GOOD_SHA=""
BAD_SHA=""
# The word before a point's messages: bisect, or series for series.sh.
BISECT_SAY=bisect
# The words for GOOD and BAD in the tree's messages (series.sh: BASE TIP).
TREE_ENDS="GOOD BAD"
# Where the tree was found (a branch, else a commit): put back on exit.
TREE_ORIG=""
# The image the last build left, copied out of the tree.
TREE_IMAGE=""
# What git bisect found: the first bad commit, or the candidates when
# skipped commits hide it (also the images form's, as run names).
CULPRIT_SHA=""
CANDIDATES=""

# --- the ends and the decisions (measure.sh) -------------------------------
# The ends' runs and means, and the boundary a point is held against.
GOOD_RUN=""
GOOD_MEAN=""
BAD_RUN=""
BAD_MEAN=""
BOUNDARY=""
# The last point's verdict: measured (an end), good, bad, skip.
VERDICT=""
# Why the last run or build failed, for steps.tsv's note.
BISECT_REASON=""
# Tree mode: the last build's seconds, for the first attempt's line.
BISECT_BUILD_SECONDS=""
# The child running now (its own process group), for the INT/TERM trap.
BISECT_CHILD=""
# The build's progress reports (progress.sh): their subshell, and 1 when
# they rewrite one line of a terminal.
BISECT_WATCH=""
BISECT_WATCH_TTY=0
# Tree mode: the results directory whose kept image the last point booted
# instead of building it (kept.sh), for steps.tsv.
BISECT_KEPT=""
# The columns of steps.tsv, one line per attempt at a point, in order.
BISECT_STEP_FIELDS="role run image release commit verdict mean half n iterations booted seconds build_seconds note round kept"
# The runs of the last good and first bad points that have the insns
# profile ("GOOD BAD", profile.sh), or why there is none.
BISECT_PROFILE=""
BISECT_PROFILE_WHY=""
# The boots the profile took (bisect.json's profile_boots, beside boots).
BISECT_PROFILE_BOOTS=0
