// Runs before the product's own scripts: a browser without a session goes straight to the
// sign-in app instead of downloading and starting the whole product first (about a second on a
// school computer). The key and the address are those of src/authProvider/session.ts
// (TOKEN_KEY, signInUrl); tests/unit/session-check.test.ts keeps the two in step.
(function () {
  var token = null;
  try {
    token = window.localStorage.getItem('xuezhu.accessToken');
  } catch (e) {
    // Storage blocked: the product's own start-up decides.
    return;
  }
  if (!token) window.location.replace('/account.html?logout=1&redirect=' + encodeURIComponent(window.location.origin + '/'));
})();
