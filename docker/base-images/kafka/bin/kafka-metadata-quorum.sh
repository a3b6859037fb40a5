#!/usr/bin/env bash
# kafka-metadata-quorum.sh: the KRaft quorum's state (org.apache.kafka.tools.MetadataQuorumCommand).
exec "$(dirname "$0")/kafka-run-class.sh" org.apache.kafka.tools.MetadataQuorumCommand "$@"
