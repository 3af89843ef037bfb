# cmake -DBUILD_DIR=... -DPREFIX=... -DCONSUMER=... -DGENERATOR=... -DC_COMPILER=... -DCXX_COMPILER=...
#       [-DEXTRA_FLAGS="-fsanitize=..."] -P install_test.cmake  (EXTRA_FLAGS: a sanitized build's)
# Installs the gelucheck build into PREFIX (emptied first), then configures, builds and runs the
# consumer project against it with find_package(gelucheck). Any failing step fails the test.
file(REMOVE_RECURSE "${PREFIX}")
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("$ ${ARGN}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: step failed (exit ${rc}): ${ARGN}")
  endif()
endfunction()
step(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}/usr")
step(${CMAKE_COMMAND} -S "${CONSUMER}" -B "${PREFIX}/build" -G "${GENERATOR}"
     -DCMAKE_PREFIX_PATH=${PREFIX}/usr -DCMAKE_BUILD_TYPE=RelWithDebInfo
     -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
     "-DCMAKE_C_FLAGS=${EXTRA_FLAGS}" "-DCMAKE_CXX_FLAGS=${EXTRA_FLAGS}"
     "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}")
step(${CMAKE_COMMAND} --build "${PREFIX}/build" -j2)
step("${PREFIX}/build/consumer_cpp")
step("${PREFIX}/build/consumer_c")
file(REMOVE_RECURSE "${PREFIX}")
