# Fault rows of init, lost links and forged heartbeats (included from tests/CMakeLists.txt after the fault section,
# which defines fault_wait, _bound, _fault_env and _mh). Every row asserts the bound, the named PE (or the phase,
# where nobody can know the PE) and a non-zero end.

# Init: a PE that stops before shmem_init leaves the others inside the bootstrap, where no PE can be named: the
# bootstrap's own bound names the phase. A PE stopped inside shmem_init (GSHMEM_TEST_STOP_IN_INIT) is named by the
# watchdog, which runs from the parameters on, with the init phase the waiter is in.
set(_init_boot "gshmem: (PE [0-9]+: )?shmem_init: the bootstrap .* has not completed within ${GSHMEM_FAULT_TIMEOUT} s")
set(_init_named "gshmem: PE [0-9]+: shmem_init: PE 1 \\([^)]*\\) has not made progress for ${GSHMEM_FAULT_TIMEOUT} s during init")
foreach(_np 2 4)
  gshmem_mpiexec_command(_cmd ${_np} $<TARGET_FILE:fault_wait> preinit 1 0)
  add_test(NAME fault.preinit.pe1.np${_np}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_fault.sh ended ${_bound} "${_init_boot}" -- ${_cmd})
  set_tests_properties(fault.preinit.pe1.np${_np} PROPERTIES TIMEOUT 90 LABELS "mpi;fault" PROCESSORS 2
                       ENVIRONMENT "${_fault_env}")
  foreach(_phase liveness regions transports attach teams)
    set(_re "${_init_named} \\(")  # the phase the waiter is in, not necessarily the victim's
    if(_phase STREQUAL "liveness")  # the victim never sent its heartbeat card: only the phase is known
      set(_re "${_init_boot}")
    endif()
    gshmem_mpiexec_command(_cmd ${_np} $<TARGET_FILE:fault_wait> ininit 1 0)
    add_test(NAME fault.ininit.${_phase}.pe1.np${_np}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_fault.sh ended ${_bound} "${_re}" -- ${_cmd})
    set_tests_properties(fault.ininit.${_phase}.pe1.np${_np} PROPERTIES TIMEOUT 90 LABELS "mpi;fault" PROCESSORS 2
                         ENVIRONMENT "${_fault_env};GSHMEM_TEST_STOP_IN_INIT=1:${_phase}")
  endforeach()
endforeach()
if(GSHMEM_HAVE_UCX)
  gshmem_mpiexec_command(_cmd 2 $<TARGET_FILE:fault_wait> preinit 1 0)
  add_test(NAME fault.ucx1node.preinit.pe1.np2
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_fault.sh ended ${_bound} "${_init_boot}" -- ${_cmd})
  set_tests_properties(fault.ucx1node.preinit.pe1.np2 PROPERTIES ENVIRONMENT "${_fault_env};GSHMEM_TRANSPORTS=ucx")
  foreach(_phase regions transports attach)
    gshmem_mpiexec_command(_cmd 2 $<TARGET_FILE:fault_wait> ininit 1 0)
    add_test(NAME fault.ucx1node.ininit.${_phase}.pe1.np2
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_fault.sh ended ${_bound} "${_init_named} \\("
                     -- ${_cmd})
    set_tests_properties(fault.ucx1node.ininit.${_phase}.pe1.np2 PROPERTIES
                         ENVIRONMENT "${_fault_env};GSHMEM_TRANSPORTS=ucx;GSHMEM_TEST_STOP_IN_INIT=1:${_phase}")
  endforeach()
  set_tests_properties(fault.ucx1node.preinit.pe1.np2 fault.ucx1node.ininit.regions.pe1.np2
                       fault.ucx1node.ininit.transports.pe1.np2 fault.ucx1node.ininit.attach.pe1.np2
                       PROPERTIES TIMEOUT 90 LABELS "mpi;fault;ucx" PROCESSORS 2)
  # Two namespace hosts: the victim is on the other host from PE 0.
  foreach(_np 2 4)
    math(EXPR _victim "${_np} / 2")
    add_test(NAME fault.multihost.preinit.pe${_victim}.np${_np}
             COMMAND ${_mh} --mpirun ${MPIEXEC_EXECUTABLE} --timeout 60 --np ${_np} --env GSHMEM_TIMEOUT=5
                     --expect-fail --within ${_bound} --check-dev-shm --expect "${_init_boot}"
                     -- $<TARGET_FILE:fault_wait> preinit ${_victim} 0)
    string(REPLACE "PE 1" "PE ${_victim}" _re "${_init_named} \\(")
    add_test(NAME fault.multihost.ininit.transports.pe${_victim}.np${_np}
             COMMAND ${_mh} --mpirun ${MPIEXEC_EXECUTABLE} --timeout 60 --np ${_np} --env GSHMEM_TIMEOUT=5
                     --env GSHMEM_TEST_STOP_IN_INIT=${_victim}:transports
                     --expect-fail --within ${_bound} --check-dev-shm --expect "${_re}"
                     -- $<TARGET_FILE:fault_wait> ininit ${_victim} 0)
    set_tests_properties(fault.multihost.preinit.pe${_victim}.np${_np}
                         fault.multihost.ininit.transports.pe${_victim}.np${_np}
                         PROPERTIES TIMEOUT 240 SKIP_RETURN_CODE 77 RUN_SERIAL TRUE LABELS "mpi;fault;multihost;ucx"
                         ENVIRONMENT "GSHMEM_SYMMETRIC_SIZE=${GSHMEM_TEST_SYMMETRIC_SIZE}")
  endforeach()
endif()

# Lost link between the two namespace hosts while PEs wait in a barrier, put into the victim in a loop, wait on a
# flag it would set, or wait for its broadcast: some PE names a PE across the link (the watchdog, or UCX's bound on
# the operation in flight), and the launcher itself exits within the bound (--expect-end): the PEs on either side
# end themselves even where the launcher's abort cannot cross the link.
if(GSHMEM_HAVE_UCX)
  set(_link_re "gshmem: PE [0-9]+: ([a-z_]+: PE [0-9]+ \\(.*\\) ha(s|ve) not made progress|lost PE [0-9]+ \\()")
  foreach(_np 2 4)
    math(EXPR _victim "${_np} / 2")
    foreach(_case linkput linkwait linkbcast)
      add_test(NAME fault.multihost.${_case}.np${_np}
               COMMAND ${_mh} --mpirun ${MPIEXEC_EXECUTABLE} --timeout 60 --np ${_np} --env GSHMEM_TIMEOUT=5
                       --expect-fail --within ${_bound} --expect-end
                       --link-down-on "fault_wait: PE ${_victim}: ${_case} now" --expect "${_link_re}"
                       -- $<TARGET_FILE:fault_wait> ${_case} ${_victim} 0)
      set_tests_properties(fault.multihost.${_case}.np${_np} PROPERTIES TIMEOUT 240 SKIP_RETURN_CODE 77 RUN_SERIAL TRUE
                           LABELS "mpi;fault;multihost;ucx"
                           ENVIRONMENT "GSHMEM_SYMMETRIC_SIZE=${GSHMEM_TEST_SYMMETRIC_SIZE}")
    endforeach()
    add_test(NAME fault.multihost.linkend.np${_np}
             COMMAND ${_mh} --mpirun ${MPIEXEC_EXECUTABLE} --timeout 60 --np ${_np} --env GSHMEM_TIMEOUT=5
                     --expect-fail --within ${_bound} --expect-end
                     --link-down-on "fault_wait: PE ${_victim}: link now" --expect "${_link_re}"
                     -- $<TARGET_FILE:fault_wait> link ${_victim} 0)
    set_tests_properties(fault.multihost.linkend.np${_np} PROPERTIES TIMEOUT 240 SKIP_RETURN_CODE 77 RUN_SERIAL TRUE
                         LABELS "mpi;fault;multihost;ucx"
                         ENVIRONMENT "GSHMEM_SYMMETRIC_SIZE=${GSHMEM_TEST_SYMMETRIC_SIZE}")
  endforeach()
endif()

# Forged heartbeats: while the victim is stopped, a thread of every waiter sends datagrams shaped as the victim's
# heartbeats (right port, rising count, wrong MAC) to the waiter's own heartbeat sockets: the job still ends in
# time naming the victim. GSHMEM_TRANSPORTS=ucx on one node: no heap is mapped, every peer is watched over UDP.
if(GSHMEM_HAVE_UCX)
  find_package(Threads REQUIRED)
  target_link_libraries(fault_wait PRIVATE Threads::Threads)
  foreach(_np 2 4)
    gshmem_mpiexec_command(_cmd ${_np} $<TARGET_FILE:fault_wait> forge 1 0)
    add_test(NAME fault.ucx1node.forge.pe1.np${_np}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fault/run_fault.sh ended ${_bound}
                     "gshmem: PE [0-9]+: shmem_barrier_all: PE 1 \\([^)]*\\) has not made progress for ${GSHMEM_FAULT_TIMEOUT} s|gshmem: PE [0-9]+: lost PE 1 \\(no progress for ${GSHMEM_FAULT_TIMEOUT} s"
                     -- ${_cmd})
    set_tests_properties(fault.ucx1node.forge.pe1.np${_np} PROPERTIES TIMEOUT 90 LABELS "mpi;fault;ucx" PROCESSORS 2
                         ENVIRONMENT "${_fault_env};GSHMEM_TRANSPORTS=ucx")
  endforeach()
endif()
