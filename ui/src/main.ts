import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';

performance.mark('mira:mount');
mount(App, { target: document.getElementById('app')! });
performance.mark('mira:mounted');
