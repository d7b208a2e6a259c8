import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { startEarly } from './lib/early';
import { parseHash } from './lib/view';

// Before mounting: the first rows are then on their way while the views are built.
startEarly(parseHash(location.hash));
mount(App, { target: document.getElementById('app')! });
