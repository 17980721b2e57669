# PEs that disagree on a collective (agreement.c), included from CMakeLists.txt here. Each row names the case, the
# PE counts, GSHMEM_CHECK, and the line the job must end with; none may print "the bad call returned". The
# mismatch rows end at once (the mailbox call summaries, the split's triplet check); the hang rows end through the
# diagnoser once a wait has lasted GSHMEM_TIMEOUT=5 s with every PE alive, which names where each PE waits.
add_executable(bad_agreement agreement.c)
target_link_libraries(bad_agreement PRIVATE gshmem)
set_target_properties(bad_agreement PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
set(_pe "gshmem: PE [0-9]+")
set(_hang "every PE is alive but this PE has waited [0-9]+ s")
foreach(_row
    "bcast_nelems|2 4|1|${_pe}: shmem_long_broadcast: nelems 16 here but 8 at PE 0, the root|nelems"
    "bcast_root|2 4|1|${_pe}: shmem_long_sum_reduce: a reduction here but PE [01] sent a broadcast|different roots"
    "reduce_op|2 4|1|${_pe}: shmem_long_[a-z]+_reduce: operator [a-z]+ here but [a-z]+ at PE [0-9]|operator"
    "reduce_nelems|2 4|1|${_pe}: shmem_long_sum_reduce: nelems [48] here but [48] at PE [0-9]|nelems"
    "diff_coll|2 4|1|${_pe}: shmem_long_sum_reduce: a reduction here but PE 0 sent a broadcast|same collective"
    "split_triplets|2 4|1|${_pe}: shmem_team_split_strided: this PE passed \\(start 0, stride 1, size [124]\\) but PE [0-9]+ \\(start 0, stride 1, size [124]\\)|same start"
    "barrier_vs_reduce|2 4|1|gshmem: PE 0: waits in shmem_barrier_all: sync #[0-9]+ of team slot 0|${_hang}"
    "skip_reduce|2 4|1|gshmem: PE [0-9]+: waits in shmem_long_sum_reduce: message #[0-9]+ from PE [13]|${_hang}"
    "bcast_two_teams|2 4|2|gshmem: PE 0: waits in shmem_long_broadcast: sync #1 of team slot [0-9]+|${_hang}")
  string(REPLACE "|" ";" _parts "${_row}")
  list(GET _parts 0 _case)
  list(GET _parts 1 _nps)
  list(GET _parts 2 _check)
  list(GET _parts 3 _regex)
  list(GET _parts 4 _also)
  string(REPLACE " " ";" _nps "${_nps}")
  foreach(_np ${_nps})
    gshmem_mpiexec_command(_cmd ${_np} $<TARGET_FILE:bad_agreement> ${_case})
    gshmem_add_expect_test(bad_agreement.${_case}.np${_np} COMMAND ${_cmd} EXPECT_RC nonzero TIMEOUT 40
                           REGEX "${_regex}" ALSO_REGEX "${_also}"
                           REJECT_REGEX "the bad call returned|Segmentation|terminate called|has not made progress"
                           LABELS "mpi;bad_input" PROCESSORS 2
                           ENVIRONMENT "${_env};GSHMEM_TIMEOUT=5;GSHMEM_CHECK=${_check}")
  endforeach()
endforeach()
