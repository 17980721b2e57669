#!/bin/bash
exec "$@" 2> >(exec tee "/tmp/wt12/stderr.pe${OMPI_COMM_WORLD_RANK:-x}" >&2)
