# gelucheck_add_check — CTest tests that check a GELU of the calling project with gelucheck:
#
#   gelucheck_add_check(NAME name SUBJECT target|spec [CLAIM claim] [FUNCTIONS f...] [FORMATS dt...]
#                       [CASES n] [POINTS n] [TIMEOUT s] [LABELS l...])
#
# SUBJECT is a shared library target of the project that exports the subject ABI
# (gelucheck/subject_abi.h; checked as lib:$<TARGET_FILE:target>) or any subject spec
# (docs/subjects.md: "cmd:/usr/bin/python3 my_gelu.py", lib:PATH, npy:DIR, ...). CLAIM is what it
# promises (none | cr | faithful | ulp:N | allclose:atol=A,rtol=R) for FUNCTIONS (tanh.value,
# tanh.derivative, erf.value, erf.derivative; default all four) in FORMATS (f64, f32, bf16, f16;
# default all four); the others are measured and claimed nothing. Without CLAIM the subject is held
# to what it claims itself, else to the framework default (docs/subjects.md, "Claims").
# Two tests, labelled `gelucheck` and LABELS:
#   name.properties  the property suite (gelucheck_proptests) on the subject, CASES cases per
#                    property (default 1000), fixed seed
#   name.gate        `gelucheck check --gate`: the accuracy campaign (POINTS sampled inputs per
#                    format, default 20000; the 16-bit formats exhaustively) and the harness's
#                    findings (crash, hang, written inputs); its report is in
#                    <build>/name.check/report.md
# Each fails when a claim breaks or the subject misbehaves. TIMEOUT (default 600 s) applies to each.
function(gelucheck_add_check)
  cmake_parse_arguments(C "" "NAME;SUBJECT;CLAIM;CASES;POINTS;TIMEOUT" "FUNCTIONS;FORMATS;LABELS"
                        ${ARGN})
  foreach(v NAME SUBJECT)
    if(NOT C_${v})
      message(FATAL_ERROR "gelucheck_add_check: ${v} is required")
    endif()
  endforeach()
  if(C_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gelucheck_add_check(${C_NAME}): unknown arguments ${C_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT C_CASES)
    set(C_CASES 1000)
  endif()
  if(NOT C_POINTS)
    set(C_POINTS 20000)
  endif()
  if(NOT C_TIMEOUT)
    set(C_TIMEOUT 600)
  endif()

  if(TARGET ${C_SUBJECT})
    get_target_property(type ${C_SUBJECT} TYPE)
    if(NOT type MATCHES "^(SHARED|MODULE)_LIBRARY$")
      message(FATAL_ERROR "gelucheck_add_check(${C_NAME}): SUBJECT ${C_SUBJECT} is a ${type}; "
                          "a target subject is a SHARED or MODULE library exporting the subject ABI")
    endif()
    set(spec "lib:$<TARGET_FILE:${C_SUBJECT}>")
  else()
    set(spec "${C_SUBJECT}")
  endif()

  # The claims as gelucheck's --claim items: CLAIM alone for everything, or `none` and then CLAIM
  # for each selected function and format.
  set(claims "")
  if(C_CLAIM)
    if(C_FUNCTIONS OR C_FORMATS)
      list(APPEND claims --claim none)
      set(fns "${C_FUNCTIONS}")
      if(NOT fns)
        set(fns "*")
      endif()
      foreach(fn IN LISTS fns)
        if(C_FORMATS)
          foreach(dt IN LISTS C_FORMATS)
            if(fn STREQUAL "*")
              list(APPEND claims --claim "@${dt}=${C_CLAIM}")
            else()
              list(APPEND claims --claim "${fn}@${dt}=${C_CLAIM}")
            endif()
          endforeach()
        else()
          list(APPEND claims --claim "${fn}=${C_CLAIM}")
        endif()
      endforeach()
    else()
      list(APPEND claims --claim "${C_CLAIM}")
    endif()
  endif()
  set(labels gelucheck ${C_LABELS})

  if(TARGET gelucheck::proptests)
    add_test(NAME ${C_NAME}.properties
             COMMAND $<TARGET_FILE:gelucheck::proptests> --subject ${spec} ${claims})
    set_tests_properties(${C_NAME}.properties PROPERTIES
      ENVIRONMENT "RC_PARAMS=max_success=${C_CASES}" LABELS "${labels}" TIMEOUT ${C_TIMEOUT})
  else()
    message(WARNING "gelucheck_add_check(${C_NAME}): this gelucheck was installed without its "
                    "property suite (built with GELUCHECK_BUILD_TESTS=OFF): only ${C_NAME}.gate")
  endif()

  set(measure "")
  if(C_FUNCTIONS)
    string(REPLACE ";" "," fns "${C_FUNCTIONS}")
    list(APPEND measure --functions ${fns})
  endif()
  if(C_FORMATS)
    string(REPLACE ";" "," dts "${C_FORMATS}")
    list(APPEND measure --formats ${dts})
  endif()
  add_test(NAME ${C_NAME}.gate
           COMMAND $<TARGET_FILE:gelucheck::gelucheck> check ${spec} ${claims} ${measure}
                   --points ${C_POINTS} --gate --no-properties --no-plots --quiet
                   --out ${CMAKE_CURRENT_BINARY_DIR}/${C_NAME}.check)
  set_tests_properties(${C_NAME}.gate PROPERTIES LABELS "${labels}" TIMEOUT ${C_TIMEOUT})
endfunction()
