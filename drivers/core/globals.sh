# The globals that run.sh and the files in drivers/ share, each declared
# once, here, with what it holds (bisect.sh's own are in
# drivers/bisect/globals.sh).  Everything else a function needs comes in as
# arguments; a variable only one file uses is declared in that file.  Every file that
# reads or writes a variable below sources this file itself, so each file
# says where its globals come from (and shellcheck can check them); only the
# first source declares, later ones return at once.
# shellcheck shell=bash disable=SC2034  # declarations only: each is used in the files named
[ -z "${MMDELTA_GLOBALS_DECLARED:-}" ] || return 0
MMDELTA_GLOBALS_DECLARED=1

# --- where things are -------------------------------------------------------
# The tree run.sh, drivers/, libexec/ and configs/ are in (set by the front
# door that was called, symlinks followed).
MMDELTA_ROOT=${MMDELTA_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# Where the binaries are: bin/ (the benches, mmconfig, mmstat, ...) and
# static/ (the --kernel guest's) below it.  A source tree builds them into
# build/; an installed tree and a guest's carry them at the top, and have
# no Makefile (drivers/core/build.sh builds or checks them).
MMDELTA_BUILD=$MMDELTA_ROOT/build
[ -f "$MMDELTA_ROOT/Makefile" ] || MMDELTA_BUILD=$MMDELTA_ROOT
# The word before every message (log.sh): "mmdelta", or the front door's
# name (compare.sh, history).  The status die() exits with: 2, bad input or
# a run that could not complete (drivers/core/exit.sh); 128 only in the
# step script git bisect runs, where it aborts git bisect.
LOG_PREFIX=mmdelta
DIE_STATUS=2

# --- the run, from run.sh's command line --------------------------------
# The config files of the run, as paths once resolve_configs has found them.
CONFIGS=()
# --set KEY=VALUE (and --monitors as MONITORS=...) in command-line order;
# config.sh hands them to mmconfig, the VM passes them to the guest.
SETS=()
# The run's name: the directory under the results root (meta's name:).
NAME=""
# The config being loaded (config.sh's config_load), for messages that
# name it and for the iterations rule, which lets a user's own config keep
# its count.
CONFIG_FILE=""
# -i N|auto, which replaces every config's ITERATIONS; empty without -i.
ITERATIONS_OVERRIDE=""
# Where the run is ("set-up", "timedmunlock iteration 3"): meta's phase when
# it fails or is interrupted.  Set through phase() in log.sh.
PHASE=start
# "cpu busy B of N CPUs, loadavg L" measured by load_check (noise.sh), for meta.
LOAD_AT_START=""

# --- -i auto's stopping rules and the sequential gate (seqgate.sh) -------
# --baseline BASE and --gate PCT as typed, and BASE's directory once checked.
GATE_BASELINE=""
GATE_PCT=""
BASE_DIR=""
# run.sh's exit with --baseline: the worst verdict its points stopped at, as
# compare.sh --gate exits (0 pass, 1 REGRESSION, 3 inconclusive).
GATE_EXIT=0
# What stopped a point's iterations, for BENCH/config's "stopped:" line.
STOP_REASON=""
# The rule's state after the last look: for the progress line
# ("CI ±1.4%", "gate inconclusive [-8.2%, 0.4%]") and for a stop at
# MAX_ITERATIONS or MAX_TIME ("with the 95% CI at ±1.40%").
AUTO_PROGRESS=""
AUTO_STATE=""

# --- --add N: more iterations for a complete run (extend.sh) -------------
# N as typed; empty for an ordinary run.
ADD_ITERATIONS=""
# The run's configs, written out as files while --add runs.
EXTEND_TMP=""
# The bench's options as its --check resolved them (or, with --add, as the
# run recorded them): what every iteration runs with.
RESOLVED_ARGS=()

# --- the run directory (rundir.sh) ---------------------------------------
# The partial run being written (RESULTS/.NAME.partial); empty until it is
# this run's own, so that the exit trap never marks another run's directory.
RUN_DIR=""
# What RUN_DIR is renamed to once complete.
FINAL_DIR=""
# 1 once rundir_finish has renamed it: the run is complete on disk, so a
# signal after that (a closed output pipe: run.sh | head) must not keep it
# from being recorded in the history (run.sh's on_signal).
RUN_COMPLETE=0
# The mode of a run's files: the umask's, as for every file run.sh writes,
# so that another user can read (compare) the run.  mktemp (meta_set) and
# perf record (the mmaplock and profile data) would make them 0600.
RUN_FILE_MODE=$(printf '%o' $((0666 & ~$(umask))))

# --- the config being run (config.sh) ------------------------------------
# Its resolved keys (defaults, then the file, then --set); during a sweep the
# swept key holds the current point's value.
declare -gA CFG=()
# Where each key of CFG came from: "file" or "set" (a size typed with --set
# is not capped to the machine).
declare -gA CFG_ORIGIN=()
# The one key whose value is a list (a sweep), or empty.
SWEEP_KEY=""
# numactl and its options for NUMA= and CPU=, before every bench command.
NUMA_PREFIX=()

# --- one bench process (iterate.sh, trigger.sh) --------------------------
# The file the running iteration's stdout (metric<TAB>value) goes to.
ITER_OUT=""
# The bench process (or the subshell waiting for it) while one runs, so an
# interrupt can stop it.
BENCH_PID=""
# The command line of the current sweep point: the numactl prefix, the
# bench, its options as its --check resolved them (point_resolve).
POINT_ARGV=()
# While run.sh checks the configs (configs_available, point_check): the
# file of the points this machine cannot run ("CONFIG: why" lines), and of
# the config being checked, how many points it has and how many of them
# cannot run.
UNAVAILABLE_FILE=""
POINTS=0
POINTS_UNAVAILABLE=0

# --- monitors (monitor.sh, monitors/*.sh) --------------------------------
# The monitors that run for the current bench, in start order.
MONITORS_ACTIVE=()
# The bench's directory in the run, where monitors/ and metrics.tsv are.
MONITOR_DIR=""
# The iteration, for raw file names ("3", "warmup1", "SIZE=1G.2").
MONITOR_TAG=""
# A private directory for the trigger's and perf's fifos while monitors run.
MONITOR_FIFO=""
# The bench's own pid between its "ready" and its exit (the process watched).
MONITOR_BENCH_PID=""
# The perf binary the monitors run (perf_find in perf.sh); empty until found.
PERF=""

# --- settings of the system (drivers/system/) -----------------------------
# The THP directory in sysfs: thp.sh writes it, privilege.sh checks it.
THP_SYS=${MMDELTA_THP_SYS:-/sys/kernel/mm/transparent_hugepage}

# --- --slurm (drivers/fleet/) ----------------------------------------------
# 1 when run.sh submits to Slurm instead of running here (--slurm).
FLEET=0
# --slurm-opt values, for sbatch and sinfo (bisect.sh --slurm sets them too).
FLEET_OPTS=()

# --- --kernel runs (vm.sh, vm/*.sh) --------------------------------------
# The kernel image to boot; empty for a run on this kernel.
VM_KERNEL=""
# --vm-mem as typed (many.sh says it back).
VM_MEM=2G
# Guest memory in MiB (from --vm-mem, by vm_options_done) and vCPUs (--vm-cpus).
VM_MEM_MB=""
VM_CPUS=1
# The guest's NUMA nodes (--vm-numa): qemu splits its memory among them.
VM_NUMA=1
# The guest clock: auto until vm_choose_accel decides icount or realtime.
VM_CLOCK=auto
# kvm or tcg, decided by vm_choose_accel, and qemu's -cpu with it (an icount
# figure depends on the emulated CPU model).
VM_ACCEL=""
VM_CPU_MODEL=""
# --vm-append as typed, and the whole guest command line built from it.
VM_APPEND=""
VM_APPEND_LINE=""
# Every --kernel image, in the order given: one Slurm job each with
# --slurm (fleet.sh), else one run each here when there are several.
FLEET_KERNELS=()
# 1 when several --kernel images run here, one run each (vm/many.sh), and
# --jobs as typed, then the guests booted at once.
VM_MANY=0
VM_JOBS=""
# When the VM set-up of a --kernel run began (microseconds since the epoch):
# vm-timeline.tsv's times are from it (vm/qemu.sh's vm_timeline).
VM_T0=0
# How the last initramfs came to be (vm/initramfs.sh): kept (from an
# earlier run) or built.
VM_INITRAMFS_HOW=""
# The kept archive the last initramfs started from.
VM_INITRAMFS_BASE=""
# The monitors that run perf (monitors/): a --kernel guest gets perf, most
# of its initramfs, only when one of them is asked for (vm/initramfs.sh).
MONITORS_PERF="profile mmaplock contention perfstat"
# Which rule chose the loaded config's ITERATIONS under icount, a sentence
# (vm/resolution.sh's vm_resolution_rule); empty for any other run.
VM_ITERATIONS_RULE=""
# --vm-timeout as typed (empty: scaled to the work), and the limit in use.
VM_TIMEOUT=""
VM_TIMEOUT_S=""
# The guest's own name for its run: the host names the result.  Under
# icount a longer name is more instructions before the bench, which shifts
# where the timer ticks fall and so the figures.
VM_GUEST_NAME=guest
# 1 when qemu loads the insns monitor's plugin (vm/insns.sh), which writes
# its counts into VM_INSNS_DIR; the guest learns it only after its benches.
VM_INSNS=0
VM_INSNS_DIR=""
# Where the host read what the image's kernel can do (vm/caps.sh), or that
# the guest checks it before its first bench; meta's vm_kernel_caps.
VM_CAPS_FROM=""
