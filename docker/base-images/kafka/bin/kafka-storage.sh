#!/usr/bin/env bash
# kafka-storage.sh: formats and inspects a KRaft node's storage (kafka.tools.StorageTool).
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.StorageTool "$@"
