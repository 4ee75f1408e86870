"""Deployment tools: the cluster of hosts on one machine (``deploy/cluster/``)."""
