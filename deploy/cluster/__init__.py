"""The site as a cluster of hosts on one machine: network namespaces joined by a bridge,
each running one part of the production set-up (``python3 -m deploy.cluster.cluster``)."""
