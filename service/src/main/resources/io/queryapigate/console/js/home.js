/* Home: what the gateway did lately. */
(function () {
  'use strict';
  const QAG = window.QAG;
  const { h } = QAG;

  QAG.screen({
    path: '/',
    title: 'Home',
    nav: { label: 'Home', order: 0 },
    render: async (main) => {
      QAG.fill(main, h('h1', null, 'Home'), h('p', null, 'Signed in as ', h('strong', null, QAG.me.name), '.'));
    },
  });
})();
