// A one-node Slurm cluster for a test: see slurm_cluster.h.
#include "slurm_cluster.h"

#include "shell_helpers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

namespace bktest {

namespace fs = std::filesystem;

namespace {

// Everything the cluster needs that is not bertkit's: tests/setup.sh installs them (slurm-wlm, munge).
const char* const kTools[] = {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol", "scancel"};

// Ports nothing listens on now, distinct: bound to port 0 together, so the kernel picks two different
// ones, and released. Another test picking the same one before the daemons bind it is unlikely.
std::vector<int> free_ports(std::size_t n) {
  std::vector<int> sockets, ports;
  for (std::size_t i = 0; i < n; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    socklen_t length = sizeof address;
    REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    sockets.push_back(fd);
    ports.push_back(ntohs(address.sin_port));
  }
  for (int fd : sockets) close(fd);
  return ports;
}

// This host's short name (`hostname -s`): slurmd finds its node in slurm.conf by it.
std::string short_hostname() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  const std::string full = name;
  return full.substr(0, full.find('.'));
}

// The CPUs this process may run on (`nproc`).
int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

}  // namespace

void Daemons::start(const std::vector<std::string>& argv, const fs::path& log) {
  const std::string program = output_of("command -v " + shell_quote(argv.at(0)));
  REQUIRE_MESSAGE(!program.empty(), argv.at(0) << " is missing: tests/setup.sh installs it");
  std::vector<std::string> store = argv;
  std::vector<char*> args;
  for (auto& a : store) args.push_back(a.data());
  args.push_back(nullptr);
  const std::string log_path = log.string();
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The child: only calls that are safe after fork, up to exec.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int out = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    const int in = open("/dev/null", O_RDONLY);
    if (out < 0 || in < 0) _exit(127);
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    execv(program.c_str(), args.data());
    _exit(127);
  }
  started_.push_back({pid, argv.at(0)});
}

std::string Daemons::exited() {
  for (Started& s : started_) {
    if (s.pid > 0 && waitpid(s.pid, nullptr, WNOHANG) == s.pid) s.pid = 0;
    if (s.pid == 0) return s.name;
  }
  return "";
}

Daemons::~Daemons() {
  using namespace std::chrono_literals;
  for (auto it = started_.rbegin(); it != started_.rend(); ++it) {
    if (it->pid <= 0) continue;
    kill(it->pid, SIGTERM);
    bool gone = false;
    for (int i = 0; i < 200 && !gone; ++i) {
      gone = waitpid(it->pid, nullptr, WNOHANG) == it->pid;
      if (!gone) std::this_thread::sleep_for(50ms);
    }
    if (!gone) {
      kill(it->pid, SIGKILL);
      waitpid(it->pid, nullptr, 0);
    }
  }
}

SlurmCluster::SlurmCluster(const fs::path& dir) : dir_(dir), conf_("SLURM_CONF", (dir / "slurm.conf").string()) {
  for (const char* tool : kTools)
    REQUIRE_MESSAGE(have_command(tool),
                    std::string(tool) << " is missing: tests/setup.sh installs slurm-wlm and munge");
  REQUIRE_MESSAGE(geteuid() == 0, "the Slurm test runs as root (as CI does): its slurmd starts jobs as their user");
  write_config();
  start_daemons();
  wait_until_idle();
}

SlurmCluster::~SlurmCluster() {
  // Jobs first, so that no slurmstepd or job outlives its slurmd; 20 s at most.
  std::system("scancel --user=root >/dev/null 2>&1; for i in $(seq 100); do [ -z \"$(squeue -h 2>/dev/null)\" ] && "
              "break; sleep 0.2; done");
}

void SlurmCluster::write_config() const {
  fs::create_directories(dir_ / "state");
  fs::create_directories(dir_ / "spool");
  fs::create_directories(dir_ / "logs");
  // munged wants its key readable by its user alone.
  write_file(dir_ / "munge.key", output_of("head -c 1024 /dev/urandom | base64 -w0"));
  fs::permissions(dir_ / "munge.key", fs::perms::owner_read | fs::perms::owner_write);
  write_file(dir_ / "plugstack.conf", "");
  const std::vector<int> ports = free_ports(2);
  const std::string dir = dir_.string();
  // One node, this host, its CPUs; no cgroups, accounting or MPI. cred_expire=5: a requeued job may
  // start again 5 s later (120 by default); sched_interval=1: the scheduler then sees it within a
  // second (60). MinJobAge=10: `sbatch --wait` polls every 8 s instead of 32 (it keeps below half).
  write_file(dir_ / "slurm.conf", fmt::format(R"(ClusterName=bertkit-test
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={dir}/munge.socket,cred_expire=5
CredType=cred/munge
StateSaveLocation={dir}/state
SlurmdSpoolDir={dir}/spool
SlurmctldPidFile={dir}/slurmctld.pid
SlurmdPidFile={dir}/slurmd.pid
PlugStackConfig={dir}/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
MinJobAge=10
KillWait=2
ReturnToService=2
JobRequeue=1
SlurmdParameters=config_overrides
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
)",
                                              fmt::arg("host", short_hostname()), fmt::arg("ctld_port", ports[0]),
                                              fmt::arg("d_port", ports[1]), fmt::arg("dir", dir),
                                              fmt::arg("cpus", usable_cpus())));
}

void SlurmCluster::start_daemons() {
  const std::string dir = dir_.string(), conf = (dir_ / "slurm.conf").string();
  // --force: munged refuses root and a socket folder that others cannot enter without it.
  daemons_.start({"munged", "--foreground", "--force", "--key-file=" + dir + "/munge.key",
                  "--socket=" + dir + "/munge.socket", "--pid-file=" + dir + "/munged.pid",
                  "--log-file=" + dir + "/logs/munged.file.log", "--seed-file=" + dir + "/munged.seed"},
                 dir_ / "logs/munged.log");
  using namespace std::chrono_literals;
  for (int i = 0; i < 100 && !fs::exists(dir_ / "munge.socket"); ++i) std::this_thread::sleep_for(50ms);
  REQUIRE_MESSAGE(fs::exists(dir_ / "munge.socket"), "munged did not start: " << logs());
  daemons_.start({"slurmctld", "-D", "-f", conf}, dir_ / "logs/slurmctld.log");
  daemons_.start({"slurmd", "-D", "-f", conf}, dir_ / "logs/slurmd.log");
}

void SlurmCluster::wait_until_idle() {
  using namespace std::chrono_literals;
  std::string state;
  for (int i = 0; i < 120 && state != "idle"; ++i) {
    const std::string gone = daemons_.exited();
    REQUIRE_MESSAGE(gone.empty(), gone << " exited at start: " << logs());
    state = output_of("sinfo -h -o %t 2>/dev/null");
    if (state != "idle") std::this_thread::sleep_for(500ms);
  }
  REQUIRE_MESSAGE(state == "idle", "the Slurm node is '" << state << "', not idle, after 60 s: " << logs());
}

std::string SlurmCluster::logs() const {
  std::string all;
  for (const char* name : {"munged", "slurmctld", "slurmd"})
    all += fmt::format("\n--- {}.log (its end) ---\n{}", name,
                       output_of("tail -n 15 " + shell_quote((dir_ / "logs" / name).string()) + ".log 2>&1"));
  return all;
}

}  // namespace bktest
