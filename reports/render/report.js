// Inlined at the end of index.html.  A page copied without its plots/ folder
// (or with a plot gnuplot failed to write) says so next to each hole instead
// of showing a broken-image icon, and the data-images attribute of the body lets the
// tests check from the DOM that every image loaded.
window.addEventListener('load', function () {
	var imgs = Array.prototype.slice.call(document.images);
	var bad = imgs.filter(function (i) { return !i.complete || i.naturalWidth === 0; });
	bad.forEach(function (i) {
		var p = document.createElement('p');
		p.className = 'missing';
		p.textContent = 'missing plot: ' + i.getAttribute('src');
		i.parentNode.insertBefore(p, i.nextSibling);
	});
	document.body.setAttribute('data-images', bad.length ? 'broken' : 'ok');
	document.body.setAttribute('data-images-loaded', String(imgs.length - bad.length));
	document.body.setAttribute('data-images-broken', String(bad.length));
});
