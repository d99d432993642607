/* Last in bundle.txt's order: every screen has registered itself; show the one for this address. */
(function () {
  'use strict';
  window.QAG.start();
})();
