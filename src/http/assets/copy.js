// The Copy button next to a secret shown once (docs/rules.md#client-secrets), served from /assets (docs/rules.md#security-headers:
// no inline script). Progressive enhancement only: without JavaScript the secret stays
// selectable in its field and the button stays hidden.
document.querySelectorAll('button[data-copy]').forEach(function (b) {
  var field = document.getElementById(b.getAttribute('data-copy'));
  if (!field) return;
  b.hidden = false;
  b.addEventListener('click', function () {
    field.select();
    var done = function () { b.textContent = 'Copied'; };
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand('copy'); done(); });
    else { document.execCommand('copy'); done(); }
  });
});
