const app = document.getElementById('app');
if (app) app.textContent = 'Offline Gov Data API: the datasets are built; the views arrive with the app issue.';
