# SPDX-License-Identifier: Apache-2.0
"""A single-node Slurm for the tests: munged, slurmctld and slurmd on localhost, every file
(key, sockets, spool, state, logs, slurm.conf) in one temporary folder, every daemon a child of
this process in the foreground (-D / -F), stopped by its pid on every way out (the with block's
end, an exception, SIGTERM/SIGINT of the test). Needs Debian's slurm-wlm and munge, and root
(slurmd starts jobs as their user)."""
import ctypes
import os
import signal
import socket
import subprocess
import time

DAEMONS = ("/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd")
CLIENTS = ("/usr/bin/sbatch", "/usr/bin/sinfo", "/usr/bin/scontrol")
# Deadlock guard only: the cluster is up in about a second; this is many times that.
READY_GUARD_S = 60
PR_SET_CHILD_SUBREAPER = 36


def _subreaper(on):
    """Orphans (slurmd's job steps, which daemonize) become this process's children while the
    cluster runs, so stop() finds and reaps them instead of leaving them to init."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)


def _children():
    me, out = os.getpid(), []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == me:
            out.append(int(pid))
    return out


def available():
    """'' when a local Slurm can start here, else why not."""
    missing = [p for p in DAEMONS + CLIENTS if not os.access(p, os.X_OK)]
    if missing:
        return "not installed: " + ", ".join(missing) + " (scripts/bootstrap installs slurm-wlm and munge)"
    if os.geteuid() != 0:
        return "slurmd must run as root"
    return ""


def _free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def _cpus():
    out = subprocess.run(["/usr/sbin/slurmd", "-C"], capture_output=True, text=True).stdout
    fields = dict(w.split("=", 1) for w in out.split() if "=" in w)
    return fields


class LocalSlurm:
    def __init__(self, folder):
        self.dir = folder
        self.procs = []
        self.env = dict(os.environ)
        self._old = {}

    def _conf(self):
        d = self.dir
        node = _cpus()
        ctld_port, d_port = _free_ports(2)
        host = socket.gethostname().split(".")[0]
        lines = [
            "ClusterName=attractor-test", f"SlurmctldHost={host}(127.0.0.1)", "SlurmUser=root",
            f"SlurmctldPort={ctld_port}", f"SlurmdPort={d_port}",
            f"AuthInfo=socket={d}/munge.socket", "AuthType=auth/munge", "CredType=cred/munge",
            f"StateSaveLocation={d}/state", f"SlurmdSpoolDir={d}/spool",
            f"SlurmctldPidFile={d}/slurmctld.pid", f"SlurmdPidFile={d}/slurmd.pid",
            f"SlurmctldLogFile={d}/slurmctld.log", f"SlurmdLogFile={d}/slurmd.log",
            "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none", "MpiDefault=none",
            "SelectType=select/cons_tres", "SelectTypeParameters=CR_CPU", "SchedulerType=sched/builtin",
            "ReturnToService=2", "JobAcctGatherType=jobacct_gather/none", "AccountingStorageType=accounting_storage/none",
            "SlurmctldTimeout=30", "SlurmdTimeout=30", "InactiveLimit=0", "KillWait=5", "MinJobAge=10",
            f"NodeName={host} NodeAddr=127.0.0.1 CPUs={node.get('CPUs', '1')} State=UNKNOWN",
            f"PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP",
        ]
        os.chmod(d, 0o755)  # munged wants its socket reachable
        os.makedirs(f"{d}/state"), os.makedirs(f"{d}/spool")
        with open(f"{d}/slurm.conf", "w") as f:
            f.write("\n".join(lines) + "\n")
        # cgroup.conf is read by slurmd even with linuxproc tracking; none of its plugins load.
        with open(f"{d}/cgroup.conf", "w") as f:
            f.write("CgroupPlugin=autodetect\nIgnoreSystemd=yes\n")

    def _start(self, argv, log):
        out = open(os.path.join(self.dir, log), "ab")
        daemon_env = {k: v for k, v in self.env.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}
        self.procs.append(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=daemon_env,
                                           start_new_session=True))
        out.close()

    def _wait(self, what, ok):
        deadline = time.monotonic() + READY_GUARD_S
        while not ok():
            for p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError(f"local Slurm: {p.args[0]} exited ({p.returncode}) before {what}; "
                                       f"logs in {self.dir}: " + self.logs())
            if time.monotonic() > deadline:
                raise RuntimeError(f"local Slurm: no {what} within the {READY_GUARD_S} s guard; " + self.logs())
            time.sleep(0.1)

    def logs(self):
        text = []
        for n in sorted(os.listdir(self.dir)):
            if n.endswith(".log"):
                with open(os.path.join(self.dir, n), errors="replace") as f:
                    text.append(f"--- {n}\n" + f.read()[-2000:])
        return "\n".join(text)

    def __enter__(self):
        for sig in (signal.SIGTERM, signal.SIGINT):
            self._old[sig] = signal.signal(sig, self._on_signal)
        _subreaper(True)
        self._before = set(_children())
        try:
            self._conf()
            d = self.dir
            self.env["SLURM_CONF"] = f"{d}/slurm.conf"
            with open(f"{d}/munge.key", "wb") as f:
                f.write(os.urandom(1024))
            os.chmod(f"{d}/munge.key", 0o400)
            os.makedirs(f"{d}/munge-state", mode=0o700)
            self._start(["/usr/sbin/munged", "-F", "--force", f"--key-file={d}/munge.key",
                         f"--socket={d}/munge.socket", f"--pid-file={d}/munged.pid",
                         f"--log-file={d}/munged.log", f"--seed-file={d}/munge-state/seed"], "munged.out.log")
            self._wait("munge socket", lambda: os.path.exists(f"{d}/munge.socket"))
            self._start(["/usr/sbin/slurmctld", "-D", "-i", "-f", f"{d}/slurm.conf"], "slurmctld.out.log")
            self._start(["/usr/sbin/slurmd", "-D", "-f", f"{d}/slurm.conf"], "slurmd.out.log")
            self._wait("idle node", self._idle)
        except BaseException:
            self.stop()
            raise
        return self

    def _idle(self):
        p = subprocess.run(["/usr/bin/sinfo", "-h", "-o", "%t"], capture_output=True, text=True, env=self.env)
        return p.returncode == 0 and p.stdout.strip() in ("idle", "mix", "alloc")

    def _on_signal(self, sig, frame):
        self.stop()
        raise KeyboardInterrupt(f"signal {sig}")

    def stop(self):
        """Stops the daemons (TERM, then KILL after the guard), newest first, and their children."""
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        self.procs = []
        # Job steps that outlived slurmd (reparented here): killed by pid, then reaped.
        for pid in set(_children()) - getattr(self, "_before", set()):
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        _subreaper(False)
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old = {}

    def __exit__(self, *exc):
        self.stop()
        return False
