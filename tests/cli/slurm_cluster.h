#pragma once
// A real Slurm cluster of one node, this machine, for the length of a test: Debian's munged,
// slurmctld and slurmd (packages munge and slurm-wlm) started as children with their key, sockets,
// state, spool, logs and pid files in a folder of the test's own and on free ports, so nothing of the
// machine's own Slurm (if any) is read or touched. SLURM_CONF points sbatch, squeue and scontrol at it
// while it lives; when it dies its jobs are cancelled and the daemons stopped, also after a failure.
// Slurm starts jobs as the user who submits them, so the daemons run as root (CI runs the tests so).
#include "support.h"

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace bktest {

// Processes started in order and stopped in reverse order when this dies: SIGTERM, then SIGKILL for
// one that is still there after 10 s. Each gets SIGKILL too if the test process dies first.
class Daemons {
 public:
  Daemons() = default;
  ~Daemons();
  Daemons(const Daemons&) = delete;
  Daemons& operator=(const Daemons&) = delete;

  // Starts `argv` (found on PATH) with stdout and stderr appended to `log`.
  void start(const std::vector<std::string>& argv, const std::filesystem::path& log);
  // The first of them that has exited ("" when all are running).
  std::string exited();

 private:
  struct Started {
    pid_t pid;
    std::string name;
  };
  std::vector<Started> started_;
};

class SlurmCluster {
 public:
  // Starts the cluster in `dir` and waits (60 s at most) for its node to be idle; fails the test with
  // one line saying why when it cannot (not root, a package missing, a daemon that exits). Not
  // copyable, as its members are not.
  explicit SlurmCluster(const std::filesystem::path& dir);
  ~SlurmCluster();

  // The daemons' logs, for a failing test's message.
  std::string logs() const;

 private:
  void write_config() const;
  void start_daemons();
  void wait_until_idle();

  std::filesystem::path dir_;
  ScopedEnv conf_;
  Daemons daemons_;
};

}  // namespace bktest
