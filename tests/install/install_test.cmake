# cmake -DBUILD_DIR=... -DPREFIX=... -DCONSUMER=... -DGENERATOR=... -DC_COMPILER=... -DCXX_COMPILER=...
#       -DHEADERS=a.hpp|b.h|... -DPYTHON=... [-DEXTRA_FLAGS="-fsanitize=..."] -P install_test.cmake
# Installs the gelucheck build into PREFIX (emptied first) and checks what is there: exactly the
# public headers HEADERS, and the installed gelucheck reaching its peers (oneDNN through the
# installed host, PyTorch through the installed adapter) where they were built or are available.
# Then the consumer project (consumer/), built against the installation with find_package(gelucheck),
# runs its own CTest twice: with its correct GELU every test must pass; rebuilt with
# -DMY_GELU_BROKEN=ON its ctest must fail, and both tests of its gelucheck_add_check among the
# failures. Any other outcome fails the test. EXTRA_FLAGS: a sanitized build's, for the consumer.
file(REMOVE_RECURSE "${PREFIX}")
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("$ ${ARGN}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: step failed (exit ${rc}): ${ARGN}")
  endif()
endfunction()
set(usr "${PREFIX}/usr")
step(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${usr}")

# The public headers and nothing else.
string(REPLACE "|" ";" want "${HEADERS}")
list(SORT want)
file(GLOB got RELATIVE "${usr}/include/gelucheck" "${usr}/include/gelucheck/*")
list(SORT got)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "install test: include/gelucheck holds\n  ${got}\nnot the public headers\n  ${want}")
endif()

# The installed gelucheck, away from its build tree's files: gelu_erf(1) = Φ(1) = 0.84134474606854
# (Python: 0.5 * math.erfc(-1 / math.sqrt(2))) is 0x1.aec4bep-1 in binary32, 0.46 ulp below the
# exact value, far from a tie: the reference must print it. The peers are within their own
# tolerances: only the run and the line's input column are checked for them.
set(input "${PREFIX}/one.txt")
file(WRITE "${input}" "1\n")
set(peers "")
file(GLOB onednn "${usr}/lib*/libgelucheck_onednn.so" "${usr}/lib*/*/libgelucheck_onednn.so")
if(onednn)
  list(APPEND peers onednn)
endif()
execute_process(COMMAND "${PYTHON}" -c "import torch, numpy" RESULT_VARIABLE has_torch
                OUTPUT_QUIET ERROR_QUIET)
if(has_torch EQUAL 0)
  list(APPEND peers torch)
endif()
foreach(s reference ${peers})
  execute_process(COMMAND "${usr}/bin/gelucheck" eval --subject ${s} --form erf --format binary32
                  INPUT_FILE "${input}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("$ gelucheck eval --subject ${s} --form erf --format binary32 <<< 1\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^0x1p\\+0\t0x1\\.")
    message(FATAL_ERROR "install test: the installed gelucheck cannot evaluate ${s}")
  endif()
  if(s STREQUAL "reference" AND NOT out MATCHES "^0x1p\\+0\t0x1\\.aec4bep-1\t")
    message(FATAL_ERROR "install test: the installed reference gives the wrong value")
  endif()
endforeach()

set(build "${PREFIX}/build")
set(configure ${CMAKE_COMMAND} -S "${CONSUMER}" -B "${build}" -G "${GENERATOR}"
    -DCMAKE_PREFIX_PATH=${usr} -DCMAKE_BUILD_TYPE=RelWithDebInfo
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    "-DCMAKE_C_FLAGS=${EXTRA_FLAGS}" "-DCMAKE_CXX_FLAGS=${EXTRA_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}" "-DCMAKE_SHARED_LINKER_FLAGS=${EXTRA_FLAGS}")
step(${configure} -DMY_GELU_BROKEN=OFF)
step(${CMAKE_COMMAND} --build "${build}" -j2)
step(${CMAKE_COMMAND} -E chdir "${build}" ctest --output-on-failure -j2)

step(${configure} -DMY_GELU_BROKEN=ON)
step(${CMAKE_COMMAND} --build "${build}" -j2)
execute_process(COMMAND ${CMAKE_COMMAND} -E chdir "${build}" ctest -j2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("$ ctest (broken my_gelu)\n${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "install test: the consumer's ctest passed with the broken my_gelu")
endif()
file(READ "${build}/Testing/Temporary/LastTestsFailed.log" failed)
foreach(t my_gelu_check.properties my_gelu_check.gate)
  if(NOT failed MATCHES ":${t}\n")
    message(FATAL_ERROR "install test: ${t} did not fail on the broken my_gelu (failed: ${failed})")
  endif()
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
