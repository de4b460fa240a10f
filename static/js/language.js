// The language menu switches as soon as a language is chosen (without JavaScript, its
// "Go" button does). A file of its own: the Content-Security-Policy allows no inline handler.
(function () {
  "use strict";
  var select = document.getElementById("language-select");
  if (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  }
})();
