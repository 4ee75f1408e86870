// Starts Redoc on /api/redoc/ (templates/drf_spectacular/redoc.html) with the page's
// CSP nonce, so that the <style> elements Redoc writes are allowed.
"use strict";
(function () {
  const container = document.getElementById("redoc-container");
  Redoc.init(container.dataset.specUrl, { nonce: container.dataset.nonce }, container);
})();
