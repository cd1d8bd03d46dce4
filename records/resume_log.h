#pragma once
// --resume: a run writing to -o FILE keeps a log beside it, FILE.resume, so that a run cut off (killed,
// a crash, a full disk, Ctrl-C, a bad record) can be continued where it stopped, giving exactly the
// bytes one uninterrupted run gives. The log is text:
//
//   bertkit-resume 1 ["embed","-m","model.bk","-i","in.txt","-o","out.jsonl"]
//   0 54             <- after the header: 0 input records finished, the output holds 54 bytes
//   64 40211         <- after each batch: input records finished (bad ones counted), output bytes
//
// The first line is the command line (without --resume, --threads and -q, which change no output
// byte); a resumed run must give the same one. A checkpoint is appended after the batch's output is
// flushed, so the output may hold more than the last checkpoint says (killed between the two) or less
// (the file was cut): resuming picks the last checkpoint the output holds, cuts the output there and
// skips that many input records. A run that completes removes the log. A record's output depends on
// that record alone (not its batch, threads or neighbours), which is what makes the bytes the same.
#include <cstdint>
#include <string>
#include <string_view>

namespace bertkit::records {

// Where an earlier run stopped, as its log and its output tell.
struct ResumePoint {
  std::uint64_t records = 0;       // input records finished: skipped
  std::uint64_t bytes = 0;         // output bytes they fill: kept
  std::uint64_t header_bytes = 0;  // of those, the output's header (written again by the writers: dropped)
  std::uint64_t log_bytes = 0;     // the log up to that checkpoint: kept
};

// The log's first line for a command line (its arguments after the program name).
std::string resume_settings_line(std::string_view settings);

// The checkpoint to resume from: the last complete one within `output_size` bytes (none: start over,
// all zero). The log must start with `settings_line`; a log of another command line is a usage error
// naming `log_name` and both command lines.
ResumePoint find_resume_point(std::string_view log, std::string_view settings_line, std::uint64_t output_size,
                              const std::string& log_name);

class ResumeLog {
 public:
  // `output`: -o's path ("-": stdout, no log). `settings`: the command line (resume_settings_line).
  // `resume`: continue the earlier run whose log and output are there (a missing output: start over).
  ResumeLog(const std::string& output, std::string settings, bool resume);
  ~ResumeLog();
  ResumeLog(const ResumeLog&) = delete;
  ResumeLog& operator=(const ResumeLog&) = delete;

  // Where this run starts (all zero for a new run).
  const ResumePoint& start() const { return start_; }
  // Records that `records` input records are finished and the output holds `bytes` bytes (flushed).
  void checkpoint(std::uint64_t records, std::uint64_t bytes);
  // The run completed: the log goes.
  void complete();

 private:
  std::string path_;
  std::string settings_;
  int fd_ = -1;
  ResumePoint start_;
};

}  // namespace bertkit::records
