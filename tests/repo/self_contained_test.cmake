# The guard can fail: self_contained.cmake run on a planted tree (not a git work tree, so its
# file-globbing path) must fail and name every planted hit, and must not name the legitimate
# look-alikes planted beside them; the same tree without the hits must pass.
#
#   cmake -DGUARD=tests/repo/self_contained.cmake -DWORK=<scratch dir> -P self_contained_test.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT DEFINED GUARD OR NOT DEFINED WORK)
  message(FATAL_ERROR "usage: cmake -DGUARD=<self_contained.cmake> -DWORK=<dir> -P self_contained_test.cmake")
endif()
set(tree "${WORK}/planted")
file(REMOVE_RECURSE "${tree}")
file(MAKE_DIRECTORY "${tree}/docs" "${tree}/src" "${tree}/records/report")

# Legitimate text that looks like a hit: upstream references, colours, preprocessor lines,
# "seed", "midpoint 1", a URL with an issue number, a temporary directory without a name.
set(clean_lines
  "See tenstorrent/tt-metal #54868 and pytorch/pytorch#12345 for the upstream bugs."
  "RapidCheck's double generator has no NaN (emil-e/rapidcheck#139; emil-e/rapidcheck issue 139)."
  "const char* kColours[] = {\"#1f77b4\", \"#d62728\"};"
  "#include <cmath>"
  "--seed S seeds the random inputs; the midpoint 1 + 2^-24 ties to even."
  "https://github.com/pytorch/pytorch/issues/12345 describes it."
  "Temporary files go under $TMPDIR (or ${tmp}p/) and are removed.")
string(JOIN "\n" clean "${clean_lines}")
file(WRITE "${tree}/docs/clean.md" "${clean}\n")

# One file per kind of hit, each line a hit (the name of the file says which). The names are put
# together from pieces, so that this file does not itself contain them.
set(design "DESIG")
set(shared "share")
set(seeds "seed")
set(work "/wor")
set(home "/hom")
set(root "/roo")
set(tmp "/tm")
set(planted
  "docs/work.md|Built in ${work}k/main/build by the lead."
  "docs/home.md|Run ${home}e/alice/gelu/check.sh first."
  "docs/root.md|The corpus is in ${root}t/corpus."
  "docs/tmp.md|Compare with ${tmp}p/old-report.json."
  "src/design.cpp|// The facts of ${design}N.md §1."
  "src/shared.cpp|// See ${shared}d/notes.txt."
  "src/seeds.cpp|// From ${seeds}s/gelu.txt."
  "src/issue.cpp|// As issue 12 asks, point 3."
  "src/issues.cpp|// Issue 7 again."
  "src/hash.cpp|// Fixed in #12."
  "src/hash_end.cpp|// Fixed in #12"
  "records/report/report.json|{\"ulp\": \"see ${design}N.md\"}")
set(expected "")
foreach(p IN LISTS planted)
  string(FIND "${p}" "|" bar)
  string(SUBSTRING "${p}" 0 ${bar} name)
  math(EXPR start "${bar} + 1")
  string(SUBSTRING "${p}" ${start} -1 text)
  file(WRITE "${tree}/${name}" "a clean first line\n${text}\nand a clean last line\n")
  list(APPEND expected "${name}")
endforeach()

execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${tree} -P "${GUARD}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
set(failures "")
if(rc EQUAL 0)
  string(APPEND failures "the guard passed a tree with planted hits\n")
endif()
foreach(name IN LISTS expected)
  string(FIND "${all}" "${name}: [" at)
  if(at EQUAL -1)
    string(APPEND failures "planted hit in ${name} not listed\n")
  endif()
endforeach()
string(FIND "${all}" "docs/clean.md" at)
if(NOT at EQUAL -1)
  string(APPEND failures "a legitimate line of docs/clean.md was listed\n")
endif()
list(LENGTH expected n)
string(FIND "${all}" "self_contained: ${n} reference(s)" at)
if(at EQUAL -1)
  string(APPEND failures "the guard did not count exactly ${n} hits\n")
endif()

# Without the planted files the same tree passes.
foreach(name IN LISTS expected)
  file(REMOVE "${tree}/${name}")
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -DROOT=${tree} -P "${GUARD}"
                RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2 ERROR_VARIABLE err2)
if(NOT rc2 EQUAL 0)
  string(APPEND failures "the guard failed the clean tree:\n${out2}${err2}\n")
endif()

file(REMOVE_RECURSE "${tree}")
if(failures)
  message(FATAL_ERROR "self_contained_test:\n${failures}\nguard output on the planted tree:\n${all}")
endif()
message(STATUS "self_contained_test: ${n} planted hits listed, the look-alikes not, the clean tree passes")
