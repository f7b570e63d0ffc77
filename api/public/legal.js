// Terms and privacy pages: both languages are in the page; the portal's language choice picks one.
'use strict';

function show(lang) {
  document.documentElement.lang = lang;
  for (const section of document.querySelectorAll('[data-lang]')) section.hidden = section.dataset.lang !== lang;
  const toggle = document.getElementById('lang');
  toggle.textContent = lang === 'ko' ? 'English' : '한국어';
  toggle.lang = lang === 'ko' ? 'en' : 'ko';
}

document.addEventListener('DOMContentLoaded', () => {
  let lang = localStorage.getItem('lang') === 'en' ? 'en' : 'ko';
  show(lang);
  document.getElementById('lang').addEventListener('click', () => {
    lang = lang === 'ko' ? 'en' : 'ko';
    localStorage.setItem('lang', lang);
    show(lang);
  });
});
