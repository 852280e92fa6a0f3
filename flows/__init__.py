"""The Prefect flows: thin orchestration over :mod:`pipeline`.

Every process a flow runs in (the CLI's, a worker's flow-run process) logs the
library's decisions (the ``pipeline`` logger) at INFO: the root logger, which Prefect
and gazette leave to libraries, says only what is critical
(:func:`pipeline.config.prefect_environment`).
"""

import logging

logging.getLogger("pipeline").setLevel(logging.INFO)
