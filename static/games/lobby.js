// Lobby: show only the options of the chosen game in the challenge and bot forms.
(function () {
  "use strict";
  var sides = {onitama: ["red", "blue"], maatatahay: ["balan", "wazu"]};
  document.querySelectorAll("form.game-form").forEach(function (form) {
    var kind = form.querySelector("select[name$='kind']");
    if (!kind) { return; }
    function show(name, visible) {
      var field = form.querySelector("[name$='-" + name + "']");
      if (field && field.closest("p")) { field.closest("p").hidden = !visible; }
    }
    function update() {
      var k = kind.value;
      show("cards", k === "onitama");
      show("variant", k === "maatatahay");
      var variant = form.querySelector("[name$='-variant']");
      show("opening", k === "maatatahay" && (!variant || variant.value === "first"));
      var seat = form.querySelector("select[name$='seat_choice']");
      if (seat) {
        Array.prototype.forEach.call(seat.options, function (option) {
          option.hidden = option.value !== "random" && sides[k].indexOf(option.value) < 0;
        });
        if (seat.selectedOptions[0] && seat.selectedOptions[0].hidden) { seat.value = "random"; }
      }
    }
    form.addEventListener("change", update);
    update();
  });
})();
