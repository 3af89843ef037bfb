# The repository speaks for itself (docs/contributing.md, "The rules"): no file names a path of a
# developer's machine, a design note or exercise file kept outside the repository, or a ticket of
# our own tracker. Fails listing every hit as FILE: [WHAT MATCHED] LINE.
#
#   cmake -DROOT=<tree> -P tests/repo/self_contained.cmake
#
# The files are those git tracks under ROOT plus the untracked ones it does not ignore (so a new
# file is checked before it is added), or every file under ROOT when ROOT is not a git work tree
# (a tarball). records/report/ is included: the generators must not write such references either.
# Binary files (PNG, .npy) are skipped.
#
# What is a hit (case-sensitive unless said):
#   - a machine path: a developer's home or work folder, root's, or the temporary folder followed
#     by a name (a developer's file);
#   - a note outside the repository: the design notes' file name, the shared notes folder and the
#     seeds folder (spelled in the patterns below with one character in brackets, so that this file
#     does not itself name them);
#   - a reference to our tracker: "issue N" / "Issue N" / "issues N", or "#N" (N digits, not followed by
#     a letter or digit, so the colour "#1f77b4" is not one).
# Upstream references are allowed and removed before the search: "owner/repo#N", "owner/repo #N"
# (e.g. emil-e/rapidcheck#139), "owner/repo issue N", and URLs.
cmake_minimum_required(VERSION 3.20)
if(NOT DEFINED ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<tree> -P self_contained.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)

set(files "")
find_program(GIT git)
set(in_git FALSE)
if(GIT)
  execute_process(COMMAND "${GIT}" -C "${ROOT}" rev-parse --show-prefix
                  RESULT_VARIABLE rc OUTPUT_VARIABLE prefix ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  # Only when ROOT is the top of its work tree (a planted tree inside a build directory of a
  # checkout is not: its files are listed by the glob below).
  if(rc EQUAL 0 AND prefix STREQUAL "")
    set(in_git TRUE)
  endif()
endif()
if(in_git)
  execute_process(COMMAND "${GIT}" -c core.quotepath=off -C "${ROOT}" ls-files --cached --others
                          --exclude-standard
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "git ls-files failed in ${ROOT}")
  endif()
  string(REPLACE "\n" ";" files "${out}")
else()
  file(GLOB_RECURSE files RELATIVE "${ROOT}" LIST_DIRECTORIES false "${ROOT}/*")
  # A build directory or a VCS directory inside the tree is no part of it.
  list(FILTER files EXCLUDE REGEX "^(build[^/]*|\\.git)/")
endif()
list(REMOVE_DUPLICATES files)
# This guard and its test name the patterns they look for.
list(FILTER files EXCLUDE REGEX "^tests/repo/")
list(FILTER files EXCLUDE REGEX "\\.(png|npy|gz|jpg|pdf)$")
# Vendored headers of a peer, kept as their authors wrote them (with their licence beside them):
# their text is not ours to word ("##0" there is C's token pasting).
list(FILTER files EXCLUDE REGEX "^adapters/[^/]+/include/")

set(candidate "/wor[k]/|/hom[e]/|/roo[t]/|/tm[p]/|DESIG[N][.]md|share[d]/|seed[s]/|[Ii]ssues? #?[0-9]|#[0-9]")
set(allowed_upstream "[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+ ?(#|issue |issues/|pull/)[0-9]+")
set(forbidden "/wor[k]/|/hom[e]/|/roo[t]/|/tm[p]/[A-Za-z0-9_.]|DESIG[N][.]md|share[d]/|seed[s]/|[Ii]ssues? #?[0-9]|#[0-9]+$|#[0-9]+[^0-9A-Za-z_]")

set(hits 0)
set(report "")
list(LENGTH files nfiles)
foreach(f IN LISTS files)
  if(f STREQUAL "" OR NOT EXISTS "${ROOT}/${f}" OR IS_DIRECTORY "${ROOT}/${f}")
    continue()
  endif()
  # Only the lines that can hold a hit are read out of the file (fast on the large report.json).
  file(STRINGS "${ROOT}/${f}" lines REGEX "${candidate}" ENCODING UTF-8)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "https?://[^ )>\"'`]*" "" stripped "${line}")
    string(REGEX REPLACE "${allowed_upstream}" "" stripped "${stripped}")
    if(stripped MATCHES "${forbidden}")
      math(EXPR hits "${hits} + 1")
      string(STRIP "${line}" shown)
      string(SUBSTRING "${shown}" 0 200 shown)
      string(APPEND report "${f}: [${CMAKE_MATCH_0}] ${shown}\n")
    endif()
  endforeach()
endforeach()

if(hits GREATER 0)
  message("${report}")
  message(FATAL_ERROR "self_contained: ${hits} reference(s) outside the repository in ${nfiles} files "
                      "(say docs/<file>.md instead; docs/contributing.md, \"The rules\")")
endif()
message(STATUS "self_contained: ${nfiles} files, no reference outside the repository")
