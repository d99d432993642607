// The /docs page: the key bar and Swagger UI. The key lives in this tab's sessionStorage only (never a cookie,
// never localStorage) and goes out as X-API-Key with the spec request and with every "Try it out" request.
(function () {
  'use strict';
  var STORAGE = 'queryapigate-key';
  var field = document.getElementById('key');
  var state = document.getElementById('key-state');

  function storedKey() {
    try {
      return sessionStorage.getItem(STORAGE) || '';
    } catch (e) {
      return '';
    }
  }

  function keep(key) {
    try {
      if (key) {
        sessionStorage.setItem(STORAGE, key);
      } else {
        sessionStorage.removeItem(STORAGE);
      }
    } catch (e) {
      // storage refused (private mode): the key lasts until the page reloads
    }
  }

  var key = storedKey();
  field.value = key;
  state.textContent = key ? 'key applied' : 'no key';

  document.getElementById('key-bar').addEventListener('submit', function (event) {
    event.preventDefault();
    keep(field.value.trim());
    window.location.reload();
  });
  document.getElementById('forget-key').addEventListener('click', function () {
    keep('');
    window.location.reload();
  });

  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#ui',
    validatorUrl: null,
    queryConfigEnabled: false,
    deepLinking: false,
    displayRequestDuration: true,
    requestInterceptor: function (request) {
      if (key) {
        request.headers['X-API-Key'] = key;
      }
      return request;
    }
  });
})();
