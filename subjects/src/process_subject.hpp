// process_subject.hpp — subjects that run outside gelucheck's process: `cmd:COMMAND` (a program
// speaking the subject protocol, protocol.hpp) and `lib:PATH[:MAP]` (a shared library exporting
// the C ABI, served by gelucheck-subject-host). Both are a ProcessSubject over process::Child.
//
// The child is not trusted. A call that crashes it, outlives OpenOptions::call_timeout_seconds,
// answers garbage or reports an error of its own returns the Status saying so (subject.hpp);
// the child is then gone, and the next call starts a fresh one and checks that its handshake is
// the same as the first. The child's stderr goes to a log file in a temporary directory; its
// tail is quoted in the message of a crash or a failed handshake.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

// `cmd:COMMAND`: COMMAND is split into words as a shell would split plain words and quotes
// (split_command). Throws SpecError: usage for a malformed command, unavailable when the program
// cannot be started or fails its handshake. `env` ("NAME=value") is added to the environment of
// every child started (the peers' variants: a thread count, an ISA cap).
std::unique_ptr<Subject> open_cmd(std::string_view command, const OpenOptions& opt,
                                  std::vector<std::string> env = {});
// `lib:REST`, REST = PATH[:MAP] (lib_map.hpp). Throws SpecError like open_cmd.
std::unique_ptr<Subject> open_lib(std::string_view rest, const OpenOptions& opt,
                                  std::vector<std::string> env = {});

// The words of a command line: blanks separate words; '...' quotes literally; "..." quotes with
// \" \\ \$ \` as escapes; a backslash outside quotes escapes the next character. Unquoted
// characters a shell would give a meaning to ($ ` | & ; < > ( ) * ? [, and ~ or # starting a
// word) are refused rather than passed on literally: no shell runs. Throws SpecError (usage).
std::vector<std::string> split_command(std::string_view command);

// Where gelucheck-subject-host is: beside the running executable (installed), else in the build
// tree it was built in. Throws SpecError (unavailable) when neither exists.
std::string subject_host_path();

// How many children a subject returned by open_cmd/open_lib has started so far (1 after open;
// one more after each call that lost its child). For tests; -1 for any other subject.
int children_started(const Subject& s);

}  // namespace gelucheck::subject
